/**
 * Chart lines as terminal text: with colour, each style is an SGR colour through chalk (whose
 * level the CLI has set from the terminal, FORCE_COLOR and NO_COLOR: src/terminal/colour.ts);
 * without, the bare text, not one escape code.
 */
import chalk from 'chalk';
import type { ChartLine, ChartStyle } from './chart.js';

const PAINT: Record<ChartStyle, (text: string) => string> = {
  heading: (t) => chalk.bold(t),
  bar: (t) => chalk.cyan(t),
  spark: (t) => chalk.cyan(t),
  dim: (t) => chalk.dim(t),
  abandoned: (t) => chalk.yellow(t),
};

/** One string per line; trailing spaces are trimmed (padding only matters before a bar's figures). */
export function paintLines(lines: readonly ChartLine[], colour: boolean): string[] {
  return lines.map((line) =>
    line
      .map((s) => (colour && s.style && s.text.trim() !== '' ? PAINT[s.style](s.text) : s.text))
      .join('')
      .trimEnd(),
  );
}
