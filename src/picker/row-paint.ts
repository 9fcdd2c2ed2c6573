/**
 * A list row as one styled string (pure; chalk's level is the process's: src/terminal/colour.ts).
 *
 * Ink walks, measures and styles every text node of every row on each frame, so a row drawn as a
 * dozen nested `<Text>` spans cost a cursor move ten times the nodes the move changes. Painted
 * here, a row is one text node. The string is the one ink makes of the nested spans: each span's
 * text through the same chalk calls, in the order ink's `<Text>` applies them (dim, colour, then
 * inverse), an empty span adding nothing; the row's own bold stays with its `<Text>`.
 */
import chalk from 'chalk';
import type { RowView } from './layout.js';

export function paintRow(view: RowView, selected: boolean, marked: boolean): string {
  let line = chalk.cyan(view.lead.slice(0, 1)) + chalk.magenta(view.lead.slice(1));
  line += chalk.dim(view.prefix) + chalk.green(view.currentMark) + chalk.red(view.conflictMark);
  line += chalk.yellow(view.nameMark);
  line += marked ? chalk.magenta(view.title) : view.named ? chalk.yellow(view.title) : view.title;
  if (view.snippet) {
    const { tag, before, match, after } = view.snippet;
    const snippet = ` · ${chalk.blue(tag)}${before}${chalk.inverse(match)}${after}`;
    line += selected ? snippet : chalk.dim(snippet);
  }
  line += view.gap;
  line += view.live ? chalk.green(view.right) : chalk.dim(view.right);
  return line;
}
