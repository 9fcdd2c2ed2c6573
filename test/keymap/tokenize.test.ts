import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeTimeouts, LONE_ESC_MS, SEQUENCE_MS } from '../../src/keymap/escape-timeouts.js';
import { createTokenizer, type Keypress, PASTE_END, PASTE_START, textKey } from '../../src/keymap/tokenize.js';

/** Tokenizes `chunks` as successive reads, resolving a held ESC at the end (the timeout). */
function tokens(...chunks: string[]): Keypress[] {
  const t = createTokenizer();
  const out: Keypress[] = [];
  for (const chunk of chunks) out.push(...t.push(chunk));
  out.push(...t.flush());
  return out;
}

/** Names, with text runs as `"text"` and pastes as `paste:"text"`. */
function names(...chunks: string[]): string[] {
  return tokens(...chunks).map((k) =>
    k.paste ? `paste:${JSON.stringify(k.text)}` : (k.name ?? JSON.stringify(k.text)),
  );
}

describe('tokenizer: control bytes', () => {
  it('names each control byte as its own key, in order', () => {
    expect(names('\r\n\t\u007f\u0008\u0000')).toEqual([
      'return',
      // LF is Ctrl+J, a key of its own (Enter sends CR): keymap.ts lets it stand in for Enter.
      'ctrl+j',
      'tab',
      'backspace',
      'backspace',
      'ctrl+space',
    ]);
    expect(names('\u0001\u0012\u0013\u0014\u0003\u001a')).toEqual([
      'ctrl+a',
      'ctrl+r',
      'ctrl+s',
      'ctrl+t',
      'ctrl+c',
      'ctrl+z',
    ]);
    expect(names('\u001c\u001d\u001f')).toEqual(['ctrl+\\', 'ctrl+]', 'ctrl+_']);
  });

  it('splits bursts (several keys in one read, as a terminal delivers fast typing) into one key each', () => {
    expect(names('\u007f\u007f\u007f')).toEqual(['backspace', 'backspace', 'backspace']);
    expect(names('abc\r')).toEqual(['"abc"', 'return']);
    expect(names('Draft\u0012')).toEqual(['"Draft"', 'ctrl+r']);
    expect(names('\t\t')).toEqual(['tab', 'tab']);
    expect(names('\u0013\u0013')).toEqual(['ctrl+s', 'ctrl+s']);
    expect(names('\u0014\u0014\u0014')).toEqual(['ctrl+t', 'ctrl+t', 'ctrl+t']);
    expect(names('\u0003\u0003')).toEqual(['ctrl+c', 'ctrl+c']);
    expect(names('\u001b\u001b')).toEqual(['escape', 'escape']);
    expect(names('\u007f'.repeat(40))).toHaveLength(40);
  });
});

describe('tokenizer: text runs', () => {
  it('keeps a run of printable text as one key; a single character is named', () => {
    expect(tokens('hello world')).toEqual([{ name: undefined, text: 'hello world', paste: false }]);
    expect(tokens('L')).toEqual([{ name: 'L', text: 'L', paste: false }]);
    expect(tokens(' ')).toEqual([{ name: 'space', text: ' ', paste: false }]);
    expect(tokens('日本')).toEqual([{ name: undefined, text: '日本', paste: false }]);
    expect(tokens('😀')).toEqual([{ name: '😀', text: '😀', paste: false }]);
  });
});

describe('tokenizer: ESC sequences', () => {
  it('CSI keys, with modifiers', () => {
    expect(names('\u001b[A\u001b[B\u001b[C\u001b[D')).toEqual(['up', 'down', 'right', 'left']);
    expect(names('\u001b[H\u001b[F\u001b[1~\u001b[4~\u001b[5~\u001b[6~\u001b[3~')).toEqual([
      'home',
      'end',
      'home',
      'end',
      'pageup',
      'pagedown',
      'delete',
    ]);
    expect(names('\u001b[1;5D\u001b[1;3C\u001b[1;2A\u001b[1;6D\u001b[5;5~')).toEqual([
      'ctrl+left',
      'meta+right',
      'shift+up',
      'ctrl+shift+left',
      'ctrl+pageup',
    ]);
    expect(names('\u001b[Z')).toEqual(['shift+tab']);
    expect(names('\u001b[a\u001b[d')).toEqual(['shift+up', 'shift+left']);
  });

  it('SS3 keys', () => {
    expect(names('\u001bOA\u001bOD\u001bOH\u001bOF\u001bOP\u001bOd\u001bOM')).toEqual([
      'up',
      'left',
      'home',
      'end',
      'f1',
      'ctrl+left',
      'return',
    ]);
  });

  it('Alt+key (ESC prefix), including Alt+control, Alt+punctuation and Alt+arrow', () => {
    expect(names('\u001bb\u001bL\u001b.\u001b \u001b\u007f\u001b\u0012\u001b\r')).toEqual([
      'meta+b',
      'meta+L',
      'meta+.',
      'meta+space',
      'meta+backspace',
      'ctrl+meta+r',
      'meta+return',
    ]);
    expect(names('\u001b\u001b[D')).toEqual(['meta+left']);
  });

  it('ESC then Ctrl+C in one read is Esc and the quit key (a busy app still quits), the same as in two reads', () => {
    expect(names('\u001b\u0003')).toEqual(['escape', 'ctrl+c']);
    expect(names('\u001b\u001b\u0003')).toEqual(['escape', 'escape', 'ctrl+c']);
  });

  it('kitty CSI-u keys', () => {
    expect(
      names('\u001b[97;5u\u001b[111;6u\u001b[108;2u\u001b[120;3u\u001b[13u\u001b[27u\u001b[127u\u001b[9;2u'),
    ).toEqual(['ctrl+a', 'ctrl+shift+o', 'L', 'meta+x', 'return', 'escape', 'backspace', 'shift+tab']);
    // A plain printable key types itself; key releases are not keys.
    expect(tokens('\u001b[97u')).toEqual([textKey('a')]);
    expect(names('\u001b[97;5:3u')).toEqual([]);
  });

  it('drops sequences that are not keys (focus, a mouse release, F-keys of the Linux console)', () => {
    expect(names('\u001b[I\u001b[O\u001b[<0;3;4m\u001b[[A', 'x')).toEqual(['x']);
  });
});

describe('tokenizer: the lone ESC', () => {
  it('is Esc after the timeout (flush)', () => {
    const t = createTokenizer();
    expect(t.push('\u001b')).toEqual([]);
    expect(t.pending()).toBe('escape');
    expect(t.flush().map((k) => k.name)).toEqual(['escape']);
    expect(t.pending()).toBeUndefined();
  });

  it('Esc then a key in separate reads is Esc + key, never Alt+key', () => {
    expect(names('\u001b', 'j')).toEqual(['escape', 'j']);
    expect(names('\u001b', '\r')).toEqual(['escape', 'return']);
    expect(names('\u001b', '\u001b')).toEqual(['escape', 'escape']);
    expect(names('\u001b', '\u001b[A')).toEqual(['escape', 'up']);
  });

  it('a sequence cut by the read is still one key', () => {
    expect(names('\u001b', '[A')).toEqual(['up']);
    expect(names('\u001b[1;', '5D')).toEqual(['ctrl+left']);
    expect(names('\u001bO', 'A')).toEqual(['up']);
    expect(names('\u001b\u001b', '[A')).toEqual(['meta+up']);
  });

  it('says what it holds, byte by byte: a lone ESC, then a sequence begun (which waits longer), then nothing', () => {
    const t = createTokenizer();
    expect(t.push('\u001b')).toEqual([]);
    expect(t.pending()).toBe('escape');
    expect(t.push('[')).toEqual([]);
    expect(t.pending()).toBe('sequence');
    expect(t.push('1')).toEqual([]);
    expect(t.push(';')).toEqual([]);
    expect(t.push('5')).toEqual([]);
    expect(t.pending()).toBe('sequence');
    expect(t.push('B').map((k) => k.name)).toEqual(['ctrl+down']);
    expect(t.pending()).toBeUndefined();
    for (const [held, pending] of [
      ['\u001b\u001b', 'escape'],
      ['\u001bO', 'sequence'],
      ['\u001b\u001b[', 'sequence'],
      ['\u001b[[', 'sequence'],
    ] as const) {
      const u = createTokenizer();
      u.push(held);
      expect(u.pending(), JSON.stringify(held)).toBe(pending);
    }
  });

  it('ESC [ left alone is Alt+[ when the wait is over; with B after it, whenever it comes, Down', () => {
    const t = createTokenizer();
    t.push('\u001b[');
    expect(t.flush().map((k) => k.name)).toEqual(['meta+[']);
    expect(names('\u001b[', 'B')).toEqual(['down']);
    expect(names('\u001b', '[', 'B')).toEqual(['down']);
  });

  it('a cut sequence that never completes is dropped, keeping what follows', () => {
    const t = createTokenizer();
    t.push('\u001b[1;');
    expect(t.flush()).toEqual([]);
    expect(t.push('x')).toEqual([textKey('x')]);
  });
});

describe('how long held-back input waits (pi 1.6.0: 10 ms after ESC, 100 over ssh, 50 for a sequence)', () => {
  it('a lone ESC 50 ms, a sequence begun 150 ms', () => {
    expect(escapeTimeouts({})).toEqual({ lone: LONE_ESC_MS, sequence: SEQUENCE_MS });
    expect([LONE_ESC_MS, SEQUENCE_MS]).toEqual([50, 150]);
  });

  it('over ssh a lone ESC waits as long as pi’s 100 ms', () => {
    expect(escapeTimeouts({ SSH_TTY: '/dev/pts/3' })).toEqual({ lone: 100, sequence: 150 });
    expect(escapeTimeouts({ SSH_CONNECTION: '10.0.0.1 5000 10.0.0.2 22' })).toEqual({ lone: 100, sequence: 150 });
  });

  it('PI_TUI_ESC_TIMEOUT, pi’s own setting, is taken as pi takes it (a sequence never waits less)', () => {
    expect(escapeTimeouts({ PI_TUI_ESC_TIMEOUT: '20', SSH_TTY: 'x' })).toEqual({ lone: 20, sequence: 150 });
    expect(escapeTimeouts({ PI_TUI_ESC_TIMEOUT: '400' })).toEqual({ lone: 400, sequence: 400 });
    for (const junk of ['0', '-5', 'soon', ''])
      expect(escapeTimeouts({ PI_TUI_ESC_TIMEOUT: junk })).toEqual({ lone: 50, sequence: 150 });
  });
});

describe('tokenizer: bracketed paste', () => {
  it('is one text key that never becomes commands', () => {
    expect(tokens(`${PASTE_START}a\rb\u0003\u001b[A\t${PASTE_END}`)).toEqual([
      { name: undefined, text: 'a\rb\u0003\u001b[A\t', paste: true },
    ]);
    expect(names(`x${PASTE_START}y${PASTE_END}\r`)).toEqual(['x', 'paste:"y"', 'return']);
  });

  it('stays one key across any chunk boundaries, markers included', () => {
    const data = `${PASTE_START}line one\rline two\u001b${PASTE_END}`;
    for (let cut = 1; cut < data.length; cut++) {
      expect(tokens(data.slice(0, cut), data.slice(cut)), `cut at ${cut}`).toEqual([
        { name: undefined, text: 'line one\rline two\u001b', paste: true },
      ]);
    }
  });

  it('a paste whose end never comes is ended by the caller, and keys work again', () => {
    const t = createTokenizer();
    t.push(`${PASTE_START}abc\u001b[20`);
    expect(t.endPaste()).toEqual([{ name: undefined, text: 'abc\u001b[20', paste: true }]);
    expect(t.pending()).toBeUndefined();
    expect(t.push('\u0003').map((k) => k.name)).toEqual(['ctrl+c']);
    expect(t.endPaste()).toEqual([]);
  });

  it('holds keys while a paste is open', () => {
    const t = createTokenizer();
    expect(t.push(`${PASTE_START}abc`)).toEqual([]);
    expect(t.pending()).toBe('paste');
    expect(t.flush()).toEqual([]);
    expect(t.push(`def${PASTE_END}`)).toEqual([{ name: undefined, text: 'abcdef', paste: true }]);
  });
});

// Pieces of input a terminal sends; a sample is any sequence of them.
const PIECES = [
  'a',
  'bc',
  'Z',
  ' ',
  '日本',
  '😀',
  '\r',
  '\t',
  '\u007f',
  '\u0008',
  '\u0012',
  '\u0003',
  '\u0000',
  '\u001b[A',
  '\u001b[1;5D',
  '\u001b[5~',
  '\u001bOB',
  '\u001b[97;5u',
  '\u001b\u001b[C',
  '\u001bb',
  '\u001b',
  `${PASTE_START}p\u001b[Aq\r${PASTE_END}`,
];

/** Merges adjacent text runs: how runs are cut into keys depends on reads, not what they type. */
function normalise(keys: Keypress[]): string[] {
  const out: string[] = [];
  for (const k of keys) {
    if (!k.paste && k.text !== '' && out.length > 0 && out.at(-1)!.startsWith('text:')) out[out.length - 1] += k.text;
    else out.push(k.paste ? `paste:${k.text}` : k.text !== '' ? `text:${k.text}` : `key:${k.name}`);
  }
  return out;
}

describe('tokenizer: chunk boundaries never change the keys', () => {
  it('property: any split of a mixed sample gives the same keys, except right after a lone ESC', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (pieces, cutSeeds) => {
          const data = pieces.join('');
          const whole = normalise(tokens(data));
          // The ESC timeout legitimately applies where a read ends on an ESC that a non-sequence
          // character follows (Esc then `b` in two reads is Esc + b, in one read Alt+B).
          const cuts = [...new Set(cutSeeds.map((seed) => 1 + (seed % Math.max(1, data.length - 1))))]
            .filter(
              (cut) => cut < data.length && !(data[cut - 1] === '\u001b' && data[cut] !== '[' && data[cut] !== 'O'),
            )
            .sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const cut of cuts) {
            // Never cut a surrogate pair: a terminal read delivers whole UTF-8 characters.
            if (/[\udc00-\udfff]/.test(data[cut]!)) continue;
            chunks.push(data.slice(from, cut));
            from = cut;
          }
          chunks.push(data.slice(from));
          expect(normalise(tokens(...chunks))).toEqual(whole);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('splitting at every single byte boundary of one mixed sample', () => {
    const data = PIECES.join('');
    const whole = normalise(tokens(data));
    for (let cut = 1; cut < data.length; cut++) {
      if (/[\udc00-\udfff]/.test(data[cut]!)) continue;
      if (data[cut - 1] === '\u001b' && data[cut] !== '[' && data[cut] !== 'O') continue;
      expect(normalise(tokens(data.slice(0, cut), data.slice(cut))), `cut at ${cut}`).toEqual(whole);
    }
  });
});
