/**
 * The keyboard tokenizer: the raw bytes a terminal sends, in whatever chunks the reads cut them
 * into, become keys in order. Pure and timer-free: the caller owns the clock (see `pending`).
 *
 *   - each control byte is one key: Enter (CR), Ctrl+J (LF: a key of its own, which a
 *     keybindings.json may bind; unbound it acts as Enter, see keymap.ts), Tab, Backspace (DEL and
 *     BS), Ctrl+letter, Ctrl+Space (NUL);
 *   - each ESC sequence is one key: CSI with modifiers (`ESC[1;5D`), `~` keys (`ESC[5~`), SS3
 *     (`ESC OA`), rxvt forms, kitty's CSI-u (`ESC[97;5u`) where a terminal sends it, and ESC before
 *     any other key (Alt+key, `ESC ESC[A` = Alt+Up);
 *   - a run of printable text is ONE key (`name` set only when the run is one character), so typing
 *     and fast bursts stay cheap; screens that bind printable keys split runs (./text-runs.ts);
 *   - a bracketed paste (`ESC[200~` … `ESC[201~`, mode 2004) is ONE key with `paste: true`, even when
 *     its bytes arrive in many chunks: it never triggers a command or a submit;
 *   - each mouse report (SGR `ESC[<0;12;5M`, legacy X10 `ESC[M` + 3 bytes) is ONE key or nothing
 *     (./mouse-sequence.ts), never text, however the reads cut it.
 *
 * A lone ESC at the end of a read is ambiguous (the Esc key, or the start of a sequence cut by the
 * read). It is held back: the next read resolves it (`[` or `O` continue a sequence; anything else
 * means it was the Esc key, and the new read's keys follow it), or the caller calls `flush()` after
 * a silence (`pending()` says which: a lone ESC, or a sequence begun but not finished, which waits
 * longer; see escape-timeouts.ts). So Esc then `j` in two reads is Esc + `j`, never Alt+J, and a
 * sequence split across two reads, even tens of milliseconds apart over ssh, is still one key.
 */
import { csiKey, ss3Name } from './csi-keys.js';
import type { KeyName } from './key-name.js';
import { charName, type Keypress, key, named, textKey } from './keypress.js';
import { sgrMouseKey, x10MouseKey } from './mouse-sequence.js';

export { type Keypress, key, type MouseEvent, textKey } from './keypress.js';

/**
 * A paste whose end marker never comes (a terminal that lost it, a dropped connection) must not
 * swallow every later key, Ctrl+C included: after this much silence it ends as it is.
 */
export const PASTE_TIMEOUT_MS = 1000;

export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';

const ESC = '\u001b';

function pasteKey(text: string): Keypress {
  return { name: undefined, text, paste: true };
}

/** Name of a single control byte (0x00–0x1f, 0x7f) without ESC, or undefined for ESC itself. */
function controlName(code: number): KeyName | undefined {
  switch (code) {
    case 0x0d:
      return 'return';
    case 0x09:
      return 'tab';
    case 0x7f:
    case 0x08:
      // DEL is Backspace; BS is Ctrl+H / Ctrl+Backspace on most terminals and Backspace on some:
      // one name, so neither is ever a trap (see src/picker/keymap.ts).
      return 'backspace';
    case 0x00:
      return 'ctrl+space';
    case 0x1b:
      return undefined;
    default:
      if (code >= 0x01 && code <= 0x1a) return named(`ctrl+${String.fromCharCode(code + 0x60)}`);
      // 0x1c–0x1f: Ctrl+\ ] ^ _
      return named(`ctrl+${String.fromCharCode(code + 0x40)}`);
  }
}

const isControl = (code: number): boolean => code < 0x20 || code === 0x7f;

/** Adds Alt (the ESC prefix) to a key name, keeping the ctrl+meta+shift order. */
function withMeta(name: KeyName): KeyName {
  if (name.startsWith('meta+') || name.startsWith('ctrl+meta+')) return name;
  if (name.startsWith('ctrl+')) return named(`ctrl+meta+${name.slice(5)}`);
  return named(`meta+${name}`);
}

type Parsed = { keypress: Keypress | undefined; length: number } | 'incomplete';

/** A legacy X10 mouse report at `at`: `ESC[M` and three characters, whatever they are (never text). */
function parseX10Mouse(input: string, at: number): Parsed {
  const bytes: string[] = [];
  let i = at + 3;
  while (bytes.length < 3) {
    const code = input.codePointAt(i);
    if (code === undefined) return 'incomplete';
    const ch = String.fromCodePoint(code);
    bytes.push(ch);
    i += ch.length;
  }
  return { keypress: x10MouseKey(bytes), length: i - at };
}

/** Parses the ESC sequence at `at` (input[at] === ESC). */
function parseEscape(input: string, at: number): Parsed {
  const next = input[at + 1];
  if (next === undefined) return 'incomplete';
  if (next === '[') {
    let i = at + 2;
    // Legacy Linux-console F-keys: ESC [ [ A.
    if (input[i] === '[') {
      if (i + 1 >= input.length) return 'incomplete';
      return { keypress: undefined, length: i + 2 - at };
    }
    if (input[i] === 'M') return parseX10Mouse(input, at);
    while (i < input.length) {
      const code = input.charCodeAt(i);
      if (code >= 0x20 && code <= 0x3f) {
        i++;
        continue;
      }
      if (code >= 0x40 && code <= 0x7e) {
        const body = input.slice(at + 2, i);
        const params = body.replace(/[ -/]+$/, '');
        const keypress = params.startsWith('<') ? sgrMouseKey(params.slice(1), input[i]!) : csiKey(params, input[i]!);
        return { keypress, length: i + 1 - at };
      }
      // Not a CSI after all (a control byte inside): ESC [ was Alt+[.
      return { keypress: key('meta+['), length: 2 };
    }
    return 'incomplete';
  }
  if (next === 'O') {
    const final = input[at + 2];
    if (final === undefined) return 'incomplete';
    const code = final.charCodeAt(0);
    if (code < 0x40 || code > 0x7e) return { keypress: key('meta+O'), length: 2 };
    const name = ss3Name(final);
    return { keypress: name === undefined ? undefined : key(name), length: 3 };
  }
  if (next === ESC) {
    // ESC before a sequence is Alt+that key (xterm's metaSendsEscape for arrows); ESC ESC alone is
    // two Escs (the second resolved like any lone ESC).
    const third = input[at + 2];
    if (third === undefined) return 'incomplete';
    if (third !== '[' && third !== 'O') return { keypress: key('escape'), length: 1 };
    const inner = parseEscape(input, at + 1);
    if (inner === 'incomplete') return 'incomplete';
    // A mouse report after an ESC is that report (Alt+click is the terminal's, if anyone's).
    if (inner.keypress?.mouse) return { keypress: inner.keypress, length: inner.length + 1 };
    const name = inner.keypress?.name;
    return { keypress: name === undefined ? undefined : key(withMeta(name)), length: inner.length + 1 };
  }
  const code = input.codePointAt(at + 1)!;
  const width = code > 0xffff ? 2 : 1;
  if (isControl(code)) {
    // ESC then Ctrl+C in one read is Esc and then the quit key, never Alt+Ctrl+C (bound nowhere): a
    // busy app that reads both keys together must still quit, as it does when they come apart.
    if (code === 0x03) return { keypress: key('escape'), length: 1 };
    const name = controlName(code);
    return { keypress: name === undefined ? undefined : key(withMeta(name)), length: 2 };
  }
  const ch = String.fromCodePoint(code);
  return { keypress: key(withMeta(charName(ch))), length: 1 + width };
}

/** What a held-back ESC prefix was, once no more bytes are coming: Escs, Alt+[ / Alt+O, or a dropped cut sequence. */
function resolveCut(cut: string): Keypress[] {
  if (cut === '') return [];
  if (cut === ESC) return [key('escape')];
  if (cut.startsWith(ESC + ESC)) return [key('escape'), ...resolveCut(cut.slice(1))];
  if (cut === `${ESC}[` || cut === `${ESC}O`) return [key(withMeta(named(cut[1]!)))];
  return [];
}

/**
 * What input is held back: a lone ESC (or ESC ESC), a sequence begun (`ESC [`, `ESC O`, a CSI
 * without its final byte: call `flush` after `escapeTimeouts().lone` or `.sequence` of silence),
 * or an open paste (`endPaste` after PASTE_TIMEOUT_MS).
 */
export type Pending = 'escape' | 'sequence' | 'paste';

export interface Tokenizer {
  /** The keys completed by `chunk`, in order. */
  push(chunk: string): Keypress[];
  pending(): Pending | undefined;
  /** Resolves held-back input after the timeout: a lone ESC is the Esc key; a cut sequence is dropped. */
  flush(): Keypress[];
  /** Ends an open paste whose end marker did not come (after PASTE_TIMEOUT_MS): the text so far. */
  endPaste(): Keypress[];
  reset(): void;
}

export function createTokenizer(): Tokenizer {
  // Bytes not yet turned into keys: an ESC sequence cut by a read.
  let held = '';
  // Inside a bracketed paste: the text so far.
  let paste: string | undefined;

  const takePaste = (input: string, from: number, out: Keypress[]): number => {
    const end = input.indexOf(PASTE_END, from);
    if (end === -1) {
      // Keep a tail that may be the start of the end marker.
      let keep = 0;
      for (let n = Math.min(PASTE_END.length - 1, input.length - from); n > 0; n--) {
        if (PASTE_END.startsWith(input.slice(input.length - n))) {
          keep = n;
          break;
        }
      }
      paste = (paste ?? '') + input.slice(from, input.length - keep);
      held = input.slice(input.length - keep);
      return input.length;
    }
    out.push(pasteKey((paste ?? '') + input.slice(from, end)));
    paste = undefined;
    return end + PASTE_END.length;
  };

  const run = (input: string, out: Keypress[]): void => {
    let i = 0;
    while (i < input.length) {
      if (paste !== undefined) {
        i = takePaste(input, i, out);
        continue;
      }
      const code = input.charCodeAt(i);
      if (code === 0x1b) {
        if (input.startsWith(PASTE_START, i)) {
          paste = '';
          i += PASTE_START.length;
          continue;
        }
        const parsed = parseEscape(input, i);
        if (parsed === 'incomplete') {
          // PASTE_START itself may be what was cut.
          held = input.slice(i);
          return;
        }
        if (parsed.keypress) out.push(parsed.keypress);
        i += parsed.length;
        continue;
      }
      if (isControl(code)) {
        const name = controlName(code);
        if (name !== undefined) out.push(key(name));
        i++;
        continue;
      }
      let end = i + 1;
      while (end < input.length && !isControl(input.charCodeAt(end))) end++;
      out.push(textKey(input.slice(i, end)));
      i = end;
    }
  };

  return {
    push(chunk) {
      const out: Keypress[] = [];
      let input = chunk;
      if (held !== '') {
        const before = held;
        held = '';
        if (paste === undefined && (before === ESC || before === ESC + ESC) && input[0] !== '[' && input[0] !== 'O') {
          // A lone ESC followed by a new read that does not continue a sequence: it was Esc.
          out.push(...resolveCut(before));
        } else input = before + input;
      }
      run(input, out);
      return out;
    },
    pending() {
      if (paste !== undefined) return 'paste';
      if (held === '') return undefined;
      return held === ESC || held === ESC + ESC ? 'escape' : 'sequence';
    },
    flush() {
      if (paste !== undefined) return [];
      const cut = held;
      held = '';
      return resolveCut(cut);
    },
    endPaste() {
      if (paste === undefined) return [];
      const text = paste + held;
      paste = undefined;
      held = '';
      return [pasteKey(text)];
    },
    reset() {
      held = '';
      paste = undefined;
    },
  };
}
