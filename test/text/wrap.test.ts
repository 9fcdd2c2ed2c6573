import { describe, expect, test } from 'vitest';
import { displayWidth, sanitizeBlock, wrapToWidth } from '../../src/text/terminal-text.js';

describe('wrapToWidth', () => {
  test('breaks at word boundaries, never inside a word that fits on a line', () => {
    const lines = wrapToWidth('FAIL Running the plugin suite with a rather long sentence', 20);
    expect(lines).toEqual(['FAIL Running the', 'plugin suite with a', 'rather long sentence']);
  });

  test('a line that fits is returned as it is', () => {
    expect(wrapToWidth('  short  ', 20)).toEqual(['  short  ']);
  });

  test('continuation lines keep the indentation of the first', () => {
    expect(wrapToWidth('    "command": "npm test -- --watch=false"', 24)).toEqual([
      '    "command": "npm test',
      '    -- --watch=false"',
    ]);
  });

  test('a word wider than a line is broken between graphemes, wide characters whole', () => {
    expect(wrapToWidth('see abcdefghijklmnop', 8)).toEqual(['see', 'abcdefgh', 'ijklmnop']);
    const cjk = wrapToWidth('漢字漢字漢字漢字', 5);
    for (const line of cjk) expect(displayWidth(line)).toBeLessThanOrEqual(5);
    expect(cjk.join('')).toBe('漢字漢字漢字漢字');
  });

  test('every line fits, and no text is lost but the spaces at the breaks', () => {
    const text = 'The quick brown fox jumps over the lazy dog, then runs off into the distance without looking back';
    for (const width of [3, 5, 9, 13, 30]) {
      const lines = wrapToWidth(text, width);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
      // Wide enough for every word: the lines are whole words, so joining them with spaces gives the text back.
      if (width >= 9) expect(lines.join(' ')).toBe(text);
    }
  });
});

describe('sanitizeBlock stripColours', () => {
  test('drops colour and style sequences, keeps their text', () => {
    expect(
      sanitizeBlock('\u001b[31mFAIL\u001b[0m ok \u001b[1;38;5;196mbold red\u001b[m', { stripColours: true }),
    ).toEqual(['FAIL ok bold red']);
  });

  test('other escape sequences are still shown escaped, never raw', () => {
    const [line] = sanitizeBlock('a\u001b[2Kb\u001b]0;title\u0007c', { stripColours: true });
    expect(line).toBe('a␛[2Kb␛]0;title\\x07c');
    expect(line).not.toContain('\u001b');
  });

  test('without the option colour sequences are escaped as before', () => {
    expect(sanitizeBlock('\u001b[31mx', {})).toEqual(['␛[31mx']);
  });
});
