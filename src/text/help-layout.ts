/**
 * Help text laid out for the width it is printed at, as git and gh do: paragraphs wrapped at
 * words, and definition lists (`  head  text`) whose texts wrap under their own column with a
 * hanging indent. Words are never broken (a word wider than the line stands alone on its line).
 * Pure: `pi-sessions --help` (src/cli/usage.ts) and the `?` help of the screens use it.
 */
import { displayWidth, padEndToWidth, wrapWords } from './terminal-text.js';

/** Two spaces before a head, two between a head and its text. */
const LEAD = 2;
const GAP = 2;
/** The text column of a stacked list: each head on its own line, its text under it from here. */
const STACKED_INDENT = 6;

/** `text` wrapped at `width`, its first line after `first` and the others after `indent` spaces. */
export function hangingLines(text: string, width: number, first: string, indent: number): string[] {
  const words = text.split(' ').filter((w) => w !== '');
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    const candidate = empty ? `${line}${word}` : `${line} ${word}`;
    if (!empty && displayWidth(candidate) > width) {
      lines.push(line);
      line = `${' '.repeat(indent)}${word}`;
    } else line = candidate;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** A paragraph wrapped at `width`. */
export function paragraph(text: string, width: number): string[] {
  return wrapWords(text, width);
}

/**
 * `rows` as a definition list for `width` columns. The texts start in one column, after the
 * widest head, unless that would leave them less than ~60 % of the line: then every head gets a
 * line of its own (wrapped, should it be wider than the line) and its text is indented under it,
 * so a long synopsis never squeezes the descriptions into a narrow strip.
 */
export function definitionList(rows: readonly (readonly [head: string, text: string])[], width: number): string[] {
  const widest = Math.max(0, ...rows.map(([head]) => displayWidth(head)));
  const column = LEAD + widest + GAP;
  const stacked = column > Math.max(STACKED_INDENT, Math.floor(width * 0.4));
  const lines = rows.flatMap(([head, text]) => {
    if (!stacked) {
      const lines = hangingLines(text, width, ' '.repeat(column), column);
      lines[0] = `${' '.repeat(LEAD)}${padEndToWidth(head, widest)}${' '.repeat(GAP)}${lines[0]!.slice(column)}`;
      return lines;
    }
    return [
      ...hangingLines(head, width, ' '.repeat(LEAD), LEAD + 4),
      ...hangingLines(text, width, ' '.repeat(STACKED_INDENT), STACKED_INDENT),
    ];
  });
  return lines.map((line) => line.trimEnd());
}
