import { PassThrough } from 'node:stream';
import chalk from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { applyColours, decideColours, stripColours } from '../../src/terminal/colour.js';

const terminal = (depth: number) => ({ isTTY: true, getColorDepth: () => depth });
const file = { isTTY: false };

describe('decideColours', () => {
  it('follows the terminal when nothing is asked', () => {
    expect(decideColours({ noColorFlag: false, env: {}, stream: terminal(24) })).toEqual({ level: 3, noColour: false });
    expect(decideColours({ noColorFlag: false, env: {}, stream: terminal(8) })).toEqual({ level: 2, noColour: false });
    expect(decideColours({ noColorFlag: false, env: {}, stream: terminal(1) })).toEqual({ level: 0, noColour: false });
    expect(decideColours({ noColorFlag: false, env: { TERM: 'dumb' }, stream: terminal(24) }).level).toBe(0);
    expect(decideColours({ noColorFlag: false, env: {}, stream: file }).level).toBe(0);
  });

  it('NO_COLOR (non-empty) and --no-color remove colours, not styles', () => {
    expect(decideColours({ noColorFlag: false, env: { NO_COLOR: '1' }, stream: terminal(24) })).toEqual({
      level: 1,
      noColour: true,
    });
    expect(decideColours({ noColorFlag: false, env: { NO_COLOR: '' }, stream: terminal(24) })).toEqual({
      level: 3,
      noColour: false,
    });
    expect(decideColours({ noColorFlag: true, env: {}, stream: terminal(24) })).toEqual({ level: 1, noColour: true });
  });

  it('FORCE_COLOR sets the level and wins over NO_COLOR; --no-color wins over both', () => {
    expect(decideColours({ noColorFlag: false, env: { FORCE_COLOR: '0' }, stream: terminal(24) })).toEqual({
      level: 0,
      noColour: false,
    });
    expect(decideColours({ noColorFlag: false, env: { FORCE_COLOR: '2' }, stream: file })).toEqual({
      level: 2,
      noColour: false,
    });
    expect(decideColours({ noColorFlag: false, env: { FORCE_COLOR: '' }, stream: file }).level).toBe(1);
    expect(decideColours({ noColorFlag: false, env: { FORCE_COLOR: 'true' }, stream: file }).level).toBe(1);
    expect(decideColours({ noColorFlag: false, env: { FORCE_COLOR: 'false' }, stream: terminal(24) }).level).toBe(0);
    expect(decideColours({ noColorFlag: false, env: { FORCE_COLOR: '9' }, stream: file }).level).toBe(3);
    expect(
      decideColours({ noColorFlag: false, env: { FORCE_COLOR: '3', NO_COLOR: '1' }, stream: terminal(24) }),
    ).toEqual({ level: 3, noColour: false });
    expect(decideColours({ noColorFlag: true, env: { FORCE_COLOR: '3' }, stream: terminal(24) })).toEqual({
      level: 1,
      noColour: true,
    });
  });
});

describe('stripColours', () => {
  it('removes foreground and background colours of every depth, keeps other styles', () => {
    expect(stripColours('\u001b[33m★\u001b[39m')).toBe('★');
    expect(stripColours('\u001b[1m\u001b[31mbold red\u001b[39m\u001b[22m')).toBe('\u001b[1mbold red\u001b[22m');
    expect(stripColours('\u001b[1;38;5;208;7mX\u001b[0m')).toBe('\u001b[1;7mX\u001b[0m');
    expect(stripColours('\u001b[38;2;1;2;3;48;2;4;5;6;4mU\u001b[24m')).toBe('\u001b[4mU\u001b[24m');
    expect(stripColours('\u001b[92;104mbright\u001b[49m')).toBe('bright');
    expect(stripColours('\u001b[2mdim\u001b[22m \u001b[7minverse\u001b[27m \u001b[m')).toBe(
      '\u001b[2mdim\u001b[22m \u001b[7minverse\u001b[27m \u001b[0m',
    );
    // Not SGR: untouched (cursor moves, erase, private modes).
    expect(stripColours('\u001b[2K\u001b[1A\u001b[?25l\u001b[31;1H')).toBe('\u001b[2K\u001b[1A\u001b[?25l\u001b[31;1H');
  });
});

describe('applyColours', () => {
  const level = chalk.level;
  afterEach(() => {
    chalk.level = level;
  });

  it('sets chalk\u2019s level, and with no colour hands out a stream whose writes lose their colours', () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    let written = '';
    (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (written += chunk.toString()));
    expect(applyColours({ level: 2, noColour: false }, stream)).toBe(stream);
    expect(chalk.level).toBe(2);
    const plain = applyColours({ level: 1, noColour: true }, stream);
    expect(chalk.level).toBe(1);
    plain.write(`${chalk.yellow('★')} ${chalk.inverse(' ')}`);
    expect(written).toBe('★ \u001b[7m \u001b[27m');
    // Everything else is the stream's own.
    expect(plain.writable).toBe(true);
    expect(plain.on).toBeTypeOf('function');
  });
});
