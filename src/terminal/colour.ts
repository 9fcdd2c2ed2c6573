/**
 * The one place the process's colour level is decided. Ink colours everything through chalk, and
 * chalk fixes its level at import from stdout alone: it ignores NO_COLOR and knows nothing of
 * `--no-color` given after a command or of the /dev/tty the picker draws on when stdout is
 * captured. So the CLI decides once, for the stream the screen is really on, and sets it here.
 *
 * Precedence: `--no-color` > FORCE_COLOR (0-3; "" or "true" = 1, "false" = 0) > NO_COLOR (any
 * non-empty value: none) > what the terminal supports (none when not a terminal or TERM=dumb).
 */
import chalk from 'chalk';

export type ColourLevel = 0 | 1 | 2 | 3;

export interface ColourInputs {
  noColorFlag: boolean;
  env: Record<string, string | undefined>;
  /** Where the colours would be drawn. */
  stream: { isTTY?: boolean; getColorDepth?(env?: Record<string, string | undefined>): number };
}

function forcedLevel(value: string): ColourLevel {
  if (value === '' || value === 'true') return 1;
  if (value === 'false') return 0;
  const level = Number.parseInt(value, 10);
  return Number.isNaN(level) ? 1 : (Math.max(0, Math.min(3, level)) as ColourLevel);
}

/** The colour level for `stream` under the flags and environment (pure). */
export function colourLevel({ noColorFlag, env, stream }: ColourInputs): ColourLevel {
  if (noColorFlag) return 0;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return forcedLevel(force);
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return 0;
  if (!stream.isTTY || env['TERM'] === 'dumb' || typeof stream.getColorDepth !== 'function') return 0;
  // Node's depth also reads NO_COLOR/FORCE_COLOR; those are settled above, ask only about the terminal.
  const { FORCE_COLOR: _force, NO_COLOR: _no, NODE_DISABLE_COLORS: _disable, ...terminalEnv } = env;
  const depth = stream.getColorDepth(terminalEnv);
  return depth >= 24 ? 3 : depth >= 8 ? 2 : depth >= 4 ? 1 : 0;
}

/** Sets the level every colour of this process is drawn with (ink's, through chalk). */
export function applyColourLevel(level: ColourLevel): void {
  chalk.level = level;
}
