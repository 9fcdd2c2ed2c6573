/**
 * Checks the raw bytes an app wrote to a terminal: every ESC must start one of the app's own
 * sequences (cursor moves, erase, SGR colours, alternate screen, cursor visibility, synchronized
 * output), and no C1 control, backspace, bare carriage return, bell, bidi override or zero-width
 * character may appear at all.
 */

/**
 * The app's own sequences: CSI cursor/erase/SGR (E, cursor to the next line, is how ink's
 * incremental rendering skips an unchanged line), the private modes it sets (mouse reporting:
 * 1000 and 1006), and the kitty keyboard mode it pushes and pops (exactly those two).
 */
const ALLOWED_ESCAPE = /\u001b\[(?:[0-9;]*[mKABCDEGHJ]|\?(?:25|1049|2026|2004|1004|1000|1006)[hl]|>1u|<u)/y;
/** OSC 52 as the tree's Copy writes it: base64 only, so copied text cannot end the sequence. */
const OSC52_COPY = /\u001b\]52;c;[A-Za-z0-9+/=]*(?:\u0007|\u001b\\)/y;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHAR =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/u;

/** Lists every control sequence or character in `raw` that the app did not mean to send. */
export function unsafeBytes(raw: string, options: { allowCopy?: boolean } = {}): string[] {
  const problems: string[] = [];
  const context = (i: number): string => JSON.stringify(raw.slice(Math.max(0, i - 30), i + 40));
  const matchesAt = (re: RegExp, i: number): boolean => {
    re.lastIndex = i;
    return re.test(raw);
  };
  for (let i = raw.indexOf('\u001b'); i !== -1; i = raw.indexOf('\u001b', i + 1)) {
    if (!matchesAt(ALLOWED_ESCAPE, i) && !(options.allowCopy && matchesAt(OSC52_COPY, i)))
      problems.push(`ESC sequence at ${i}: ${context(i)}`);
  }
  // The copy sequence's own BEL terminator is not a stray BEL.
  const scanned = options.allowCopy ? raw.replace(new RegExp(OSC52_COPY.source, 'g'), '') : raw;
  const withoutNewlines = scanned.replace(/\r\n/g, '\n');
  for (const match of withoutNewlines.matchAll(/\r/g))
    problems.push(`bare CR at ${match.index}: ${context(match.index)}`);
  const forbidden = new RegExp(FORBIDDEN_CHAR.source, 'gu');
  for (const match of scanned.matchAll(forbidden))
    problems.push(
      `U+${match[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${match.index}: ${context(match.index)}`,
    );
  return problems;
}
