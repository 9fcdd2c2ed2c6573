import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanInputText,
  initialTextInput,
  type TextInputAction,
  type TextInputState,
  textInputReducer,
} from '../../src/state/text-input.js';

const at = (value: string, cursor: number): TextInputState => ({ value, cursor });
const run = (state: TextInputState, ...actions: TextInputAction[]): TextInputState =>
  actions.reduce(textInputReducer, state);

describe('initialTextInput', () => {
  it('puts the cursor at the end by default, or at the start', () => {
    expect(initialTextInput('abc')).toEqual(at('abc', 3));
    expect(initialTextInput('abc', false)).toEqual(at('abc', 0));
    expect(initialTextInput()).toEqual(at('', 0));
  });
  it('cleans the initial value', () => {
    expect(initialTextInput('a\nb\u001b')).toEqual(at('a b', 3));
  });
});

describe('textInputReducer', () => {
  it.each<[string, TextInputState, TextInputAction, TextInputState]>([
    ['insert at end', at('ab', 2), { type: 'insert', text: 'c' }, at('abc', 3)],
    ['insert in middle', at('ac', 1), { type: 'insert', text: 'b' }, at('abc', 2)],
    ['insert paste chunk', at('', 0), { type: 'insert', text: 'hello world' }, at('hello world', 11)],
    ['paste with newlines and tabs', at('', 0), { type: 'insert', text: 'a\r\nb\tc\n' }, at('a b c ', 6)],
    [
      'paste with controls/bidi dropped',
      at('', 0),
      { type: 'insert', text: 'x\u001b[31my\u202ez\u200b' },
      at('x[31myz', 7),
    ],
    ['insert emoji', at('a', 1), { type: 'insert', text: '😀' }, at('a😀', 3)],
    ['backspace', at('abc', 3), { type: 'backspace' }, at('ab', 2)],
    ['backspace in middle', at('abc', 1), { type: 'backspace' }, at('bc', 0)],
    ['backspace removes whole surrogate pair', at('a😀', 3), { type: 'backspace' }, at('a', 1)],
    ['deleteForward', at('abc', 1), { type: 'deleteForward' }, at('ac', 1)],
    ['deleteForward surrogate pair', at('😀b', 0), { type: 'deleteForward' }, at('b', 0)],
    ['deleteWordLeft', at('foo bar baz', 11), { type: 'deleteWordLeft' }, at('foo bar ', 8)],
    ['deleteWordLeft skips trailing spaces', at('foo bar  ', 9), { type: 'deleteWordLeft' }, at('foo ', 4)],
    ['deleteWordLeft mid-word', at('foo barbaz', 7), { type: 'deleteWordLeft' }, at('foo baz', 4)],
    ['deleteWordLeft with emoji word', at('x 😀😀', 6), { type: 'deleteWordLeft' }, at('x ', 2)],
    ['clearToStart', at('foo bar', 4), { type: 'clearToStart' }, at('bar', 0)],
    ['clearToEnd', at('foo bar', 4), { type: 'clearToEnd' }, at('foo ', 4)],
    ['clearToEnd at the end changes nothing', at('foo', 3), { type: 'clearToEnd' }, at('foo', 3)],
    ['deleteWordRight', at('foo bar baz', 3), { type: 'deleteWordRight' }, at('foo baz', 3)],
    ['deleteWordRight mid-word', at('foobar baz', 3), { type: 'deleteWordRight' }, at('foo baz', 3)],
    ['left', at('ab', 2), { type: 'left' }, at('ab', 1)],
    ['left over surrogate pair', at('a😀', 3), { type: 'left' }, at('a😀', 1)],
    ['right over surrogate pair', at('😀a', 0), { type: 'right' }, at('😀a', 2)],
    ['wordLeft', at('foo bar', 7), { type: 'wordLeft' }, at('foo bar', 4)],
    ['wordRight', at('foo bar', 0), { type: 'wordRight' }, at('foo bar', 3)],
    ['wordRight from space', at('foo bar', 3), { type: 'wordRight' }, at('foo bar', 7)],
    ['home', at('abc', 2), { type: 'home' }, at('abc', 0)],
    ['end', at('abc', 0), { type: 'end' }, at('abc', 3)],
    ['set', at('abc', 1), { type: 'set', value: 'xy' }, at('xy', 2)],
    ['set cursor at start', at('abc', 1), { type: 'set', value: 'xy', cursorAtEnd: false }, at('xy', 0)],
    ['clear', at('abc', 1), { type: 'clear' }, at('', 0)],
  ])('%s', (_label, state, action, expected) => {
    expect(textInputReducer(state, action)).toEqual(expected);
  });

  it.each<[string, TextInputState, TextInputAction]>([
    ['backspace at start', at('abc', 0), { type: 'backspace' }],
    ['deleteForward at end', at('abc', 3), { type: 'deleteForward' }],
    ['left at start', at('abc', 0), { type: 'left' }],
    ['right at end', at('abc', 3), { type: 'right' }],
    ['home at start', at('abc', 0), { type: 'home' }],
    ['end at end', at('abc', 3), { type: 'end' }],
    ['insert nothing', at('abc', 1), { type: 'insert', text: '' }],
    ['insert only controls', at('abc', 1), { type: 'insert', text: '\u0007\u001b' }],
    ['deleteWordLeft at start', at('abc', 0), { type: 'deleteWordLeft' }],
    ['clearToStart at start', at('abc', 0), { type: 'clearToStart' }],
    ['clear empty', at('', 0), { type: 'clear' }],
    ['set same', at('abc', 3), { type: 'set', value: 'abc' }],
  ])('returns the same object when nothing changes: %s', (_label, state, action) => {
    expect(textInputReducer(state, action)).toBe(state);
  });

  it('edits a realistic sequence', () => {
    const s = run(
      initialTextInput(''),
      { type: 'insert', text: 'fix the bug' },
      { type: 'deleteWordLeft' },
      { type: 'insert', text: 'tests' },
      { type: 'home' },
      { type: 'insert', text: '>' },
      { type: 'end' },
      { type: 'backspace' },
    );
    expect(s).toEqual(at('>fix the test', 13));
  });

  it('never leaves the cursor inside a surrogate pair or out of range (property)', () => {
    const action = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 4 }).map((text): TextInputAction => ({ type: 'insert', text })),
      fc.constantFrom<TextInputAction>(
        { type: 'backspace' },
        { type: 'deleteForward' },
        { type: 'deleteWordLeft' },
        { type: 'clearToStart' },
        { type: 'left' },
        { type: 'right' },
        { type: 'wordLeft' },
        { type: 'wordRight' },
        { type: 'home' },
        { type: 'end' },
      ),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const s = run(initialTextInput(''), ...actions);
        expect(s.cursor).toBeGreaterThanOrEqual(0);
        expect(s.cursor).toBeLessThanOrEqual(s.value.length);
        const code = s.value.charCodeAt(s.cursor);
        const prev = s.value.charCodeAt(s.cursor - 1);
        const splitsPair = code >= 0xdc00 && code <= 0xdfff && prev >= 0xd800 && prev <= 0xdbff;
        expect(splitsPair).toBe(false);
        expect(/[\ud800-\udfff]/u.test(s.value)).toBe(false); // no lone surrogates
        expect(cleanInputText(s.value)).toBe(s.value);
      }),
      { numRuns: 500 },
    );
  });
});
