import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenizer, type Keypress } from '../../src/keymap/tokenize.js';

/** Tokenizes `chunks` as successive reads, resolving held input at the end (the timeout). */
function tokens(...chunks: string[]): Keypress[] {
  const t = createTokenizer();
  const out: Keypress[] = [];
  for (const chunk of chunks) out.push(...t.push(chunk));
  out.push(...t.flush());
  return out;
}

const sgr = (b: number, x: number, y: number, final = 'M'): string => `\u001b[<${b};${x};${y}${final}`;
const x10 = (b: number, x: number, y: number): string => `\u001b[M${String.fromCodePoint(b + 32, x + 32, y + 32)}`;

const click = (x: number, y: number): Keypress => ({
  name: 'click',
  text: '',
  paste: false,
  mouse: { kind: 'click', x, y },
});
const wheel = (direction: 'up' | 'down', x: number, y: number): Keypress => ({
  name: direction === 'up' ? 'wheelup' : 'wheeldown',
  text: '',
  paste: false,
  mouse: { kind: 'wheel', direction, x, y },
});

describe('tokenizer: SGR mouse reports', () => {
  it('names a left press, the wheel up and down, with the cell', () => {
    expect(tokens(sgr(0, 12, 5))).toEqual([click(12, 5)]);
    expect(tokens(sgr(64, 3, 9))).toEqual([wheel('up', 3, 9)]);
    expect(tokens(sgr(65, 300, 120))).toEqual([wheel('down', 300, 120)]);
  });

  it('drops releases, drags, the other buttons and sideways wheels: no key, no text', () => {
    for (const report of [
      sgr(0, 12, 5, 'm'),
      sgr(1, 1, 1),
      sgr(2, 1, 1),
      sgr(32, 4, 4),
      sgr(35, 4, 4),
      sgr(66, 1, 1),
      sgr(67, 1, 1),
      sgr(128, 1, 1),
      '\u001b[<0;5M',
      '\u001b[<0;1;1;1M',
    ])
      expect(tokens(report), JSON.stringify(report)).toEqual([]);
  });

  it('keeps a press with Shift, Alt or Ctrl held a click, and a wheel with them a wheel', () => {
    expect(tokens(sgr(4, 2, 3), sgr(8, 2, 3), sgr(16, 2, 3))).toEqual([click(2, 3), click(2, 3), click(2, 3)]);
    expect(tokens(sgr(64 + 16, 2, 3))).toEqual([wheel('up', 2, 3)]);
  });

  it('takes several reports in one read, and keys around them, in order', () => {
    expect(tokens(`${sgr(65, 1, 4)}${sgr(65, 1, 4)}${sgr(65, 1, 4)}`)).toEqual([
      wheel('down', 1, 4),
      wheel('down', 1, 4),
      wheel('down', 1, 4),
    ]);
    const keys = tokens(`ab${sgr(0, 7, 6)}${sgr(0, 7, 6, 'm')}cd\r`);
    expect(keys.map((k) => k.name ?? JSON.stringify(k.text))).toEqual(['"ab"', 'click', '"cd"', 'return']);
  });

  it('is one key however the reads cut it, at every byte', () => {
    const report = `${sgr(0, 123, 45)}${sgr(0, 123, 45, 'm')}`;
    for (let cut = 1; cut < report.length; cut++)
      expect(tokens(report.slice(0, cut), report.slice(cut)), `cut at ${cut}`).toEqual([click(123, 45)]);
  });

  it('drops a report cut short when nothing follows (the sequence timeout), typing nothing', () => {
    const t = createTokenizer();
    expect(t.push('\u001b[<0;12')).toEqual([]);
    expect(t.pending()).toBe('sequence');
    expect(t.flush()).toEqual([]);
    expect(t.push('x')).toEqual([{ name: 'x', text: 'x', paste: false }]);
  });

  it('gives an ESC before a report the report (never Alt+something)', () => {
    expect(tokens(`\u001b${sgr(0, 2, 2)}`)).toEqual([click(2, 2)]);
  });

  it('never lets a report through as text, whatever its numbers and however it is cut (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            b: fc.integer({ min: 0, max: 255 }),
            x: fc.integer({ min: 1, max: 9999 }),
            y: fc.integer({ min: 1, max: 9999 }),
            final: fc.constantFrom('M', 'm'),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(fc.integer({ min: 1, max: 200 }), { maxLength: 5 }),
        (reports, cuts) => {
          const input = reports.map((r) => sgr(r.b, r.x, r.y, r.final)).join('');
          const chunks: string[] = [];
          let from = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            if (cut <= from || cut >= input.length) continue;
            chunks.push(input.slice(from, cut));
            from = cut;
          }
          chunks.push(input.slice(from));
          const keys = tokens(...chunks);
          expect(keys.every((k) => k.text === '' && k.mouse !== undefined)).toBe(true);
        },
      ),
    );
  });
});

describe('tokenizer: legacy X10 mouse reports', () => {
  it('names a left press and the wheel, with the cell; drops the release', () => {
    expect(tokens(x10(0, 10, 4))).toEqual([click(10, 4)]);
    expect(tokens(x10(64, 1, 1), x10(65, 2, 2))).toEqual([wheel('up', 1, 1), wheel('down', 2, 2)]);
    expect(tokens(x10(3, 10, 4))).toEqual([]);
  });

  it('never types its three bytes, in one read, split, or between text', () => {
    const report = x10(0, 40, 20);
    for (let cut = 1; cut < report.length; cut++)
      expect(tokens(report.slice(0, cut), report.slice(cut)), `cut at ${cut}`).toEqual([click(40, 20)]);
    const keys = tokens(`q${x10(3, 40, 20)}${x10(0, 40, 20)}w`);
    expect(keys.map((k) => k.name ?? JSON.stringify(k.text))).toEqual(['q', 'click', 'w']);
  });
});
