/**
 * The one place the process's colours are decided. Ink draws every colour and style through
 * chalk, and chalk fixes its level at import from stdout alone: it ignores NO_COLOR, knows nothing
 * of `--no-color` after a command, nor of the /dev/tty the picker draws on when stdout is captured.
 * So the CLI decides once, for the stream the screen is really on (`decideColours`), and applies
 * the decision here (`applyColours`).
 *
 * - `--no-color` or NO_COLOR (any non-empty value): no colour. Bold, dim, inverse and underline
 *   stay (NO_COLOR is about colour only: the text cursor and the search highlights are inverse).
 * - FORCE_COLOR=0..3 ("" or "true" = 1, "false" = 0) sets chalk's level as chalk does, even when
 *   not on a terminal; it wins over NO_COLOR, `--no-color` wins over both. Level 0 is plain text.
 * - Otherwise: what the terminal supports (nothing when not a terminal, or TERM=dumb).
 */
import chalk from 'chalk';

export type ColourLevel = 0 | 1 | 2 | 3;

export interface ColourDecision {
  /** chalk's level: 0 draws no escape codes at all. */
  level: ColourLevel;
  /** Colours are removed from what is drawn, other styles kept. */
  noColour: boolean;
}

export interface ColourInputs {
  noColorFlag: boolean;
  env: Record<string, string | undefined>;
  /** Where the screen is drawn. */
  stream: { isTTY?: boolean; getColorDepth?(env?: Record<string, string | undefined>): number };
}

function forcedLevel(value: string): ColourLevel {
  if (value === '' || value === 'true') return 1;
  if (value === 'false') return 0;
  const level = Number.parseInt(value, 10);
  return Number.isNaN(level) ? 1 : (Math.max(0, Math.min(3, level)) as ColourLevel);
}

function terminalLevel(env: Record<string, string | undefined>, stream: ColourInputs['stream']): ColourLevel {
  if (!stream.isTTY || env['TERM'] === 'dumb' || typeof stream.getColorDepth !== 'function') return 0;
  // Node's depth also reads NO_COLOR and FORCE_COLOR; those are settled by the caller.
  const { FORCE_COLOR: _force, NO_COLOR: _no, NODE_DISABLE_COLORS: _disable, ...terminalEnv } = env;
  const depth = stream.getColorDepth(terminalEnv);
  return depth >= 24 ? 3 : depth >= 8 ? 2 : depth >= 4 ? 1 : 0;
}

/** The decision for `stream` under the flag and the environment (pure). */
export function decideColours({ noColorFlag, env, stream }: ColourInputs): ColourDecision {
  const force = env['FORCE_COLOR'];
  const level = force !== undefined ? forcedLevel(force) : terminalLevel(env, stream);
  const noColour = noColorFlag || (force === undefined && env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '');
  return { level: noColour ? (Math.min(level, 1) as ColourLevel) : level, noColour };
}

// SGR parameters that set a colour: 30-39 and 90-97 (foreground), 40-49 and 100-107 (background);
// 38 and 48 take `5;n` or `2;r;g;b` after them.
function withoutColourParameters(parameters: string): string | undefined {
  const parts = parameters === '' ? ['0'] : parameters.split(';');
  const kept: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const code = Number(parts[i]);
    if (code === 38 || code === 48) {
      i += parts[i + 1] === '5' ? 2 : parts[i + 1] === '2' ? 4 : 0;
      continue;
    }
    if ((code >= 30 && code <= 49) || (code >= 90 && code <= 97) || (code >= 100 && code <= 107)) continue;
    kept.push(parts[i]!);
  }
  return kept.length === 0 ? undefined : kept.join(';');
}

const SGR_RE = /\u001b\[([0-9;]*)m/g;

/** `text` with every colour removed from its SGR sequences (other styles kept; pure). */
export function stripColours(text: string): string {
  if (!text.includes('\u001b[')) return text;
  return text.replace(SGR_RE, (_sequence, parameters: string) => {
    const kept = withoutColourParameters(parameters);
    return kept === undefined ? '' : `\u001b[${kept}m`;
  });
}

/**
 * Sets chalk's level for the whole process, and returns the stream to draw on: `stream` itself, or,
 * with no colour, a view of it whose writes lose their colours (everything else is the stream's).
 */
export function applyColours<T extends NodeJS.WriteStream>(decision: ColourDecision, stream: T): T {
  chalk.level = decision.level;
  if (!decision.noColour || decision.level === 0) return stream;
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    Reflect.apply(stream.write, stream, [typeof chunk === 'string' ? stripColours(chunk) : chunk, ...rest]) as boolean;
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
