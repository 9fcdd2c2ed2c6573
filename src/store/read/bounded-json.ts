/**
 * A JSON parser for a line too long to hold whole. Fed the line's bytes piece by piece, it accepts
 * exactly what `JSON.parse` accepts (and objects glued with `}{`, like `splitGlued`), and builds
 * the value with every string cut to its first KEPT_STRING_BYTES and at most KEPT_VALUE_BYTES of
 * values in all: its memory is bounded by those, whatever the size of the line. It also records
 * where the value of each member of the first top-level object lies in the line, so a writer can
 * copy the line's bytes and replace one member (a fork rechains `parentId`) without holding it.
 *
 * A value built this way is only ever shown or counted, never written back: an entry made from
 * it is marked (too-large.ts `tooLargeLineOf`) and every writer refuses or copies the bytes instead.
 */

import { ESCAPABLE, isDigit, isHex, isSpace, N_START, numberEnds, numberStep, setMember } from './json-grammar.js';
import { KeptString } from './kept-string.js';

/** Of a longer string, this many bytes (of its JSON text) are kept. */
export const KEPT_STRING_BYTES = 64 * 1024;
/** The bytes of strings, keys and numbers kept in all; past it values are left out. */
export const KEPT_VALUE_BYTES = 1024 * 1024;
/** Numbers longer than this (digits of a hostile file) are left out rather than kept. */
const KEPT_NUMBER_CHARS = 64;
/** Members of the first top-level object whose place in the line is recorded. */
const TRACKED_MEMBERS = 64;

export interface MemberSpan {
  /** `[start, end)` of the member's value, in bytes from the start of the line. */
  start: number;
  end: number;
}

export interface BoundedJson {
  /** The top-level values in order: one, or several objects glued with `}{`. Empty for a blank line. */
  values: unknown[];
  /** Set when the bytes are not JSON: why, and where. */
  error: string | undefined;
  /** Only spaces, tabs and `\r` (pi skips such a line). */
  blank: boolean;
  /** Strings of which only the start was kept. */
  cutStrings: number;
  /** Values left out (the budget was spent, or a number was absurdly long): the value is incomplete. */
  droppedValues: boolean;
  /** Where the value of each member of the first top-level object is (the last of a repeated key). */
  members: Map<string, MemberSpan>;
  /** Bytes fed. */
  bytes: number;
}

// Parser states (plain numbers: the loop below switches on them per byte).
const VALUE = 0; // a value must come (after `:`, `[` or `,` in an array, or at the top)
const KEY_OR_END = 1; // just after `{`
const KEY = 2; // after `,` in an object
const COLON = 3;
const AFTER_VALUE = 4; // `,` or the container's end
const STRING = 5;
const ESCAPE = 6;
const UNICODE = 7;
const NUMBER = 8;
const LITERAL = 9;
const TOP_END = 10; // a top-level value is complete
const FAILED = 11;
const ARRAY_START = 12; // just after `[`: a value or `]`

interface Frame {
  array: boolean;
  /** The container being built; undefined once left out (the budget was spent). */
  value: unknown[] | Record<string, unknown> | undefined;
  /** The member name waiting for its value (objects). */
  key: string;
}

/** Feeds a line's bytes in pieces (`push`), then `end()` gives the value. */
export class BoundedJsonParser {
  private state = VALUE;
  private readonly stack: Frame[] = [];
  private readonly result: BoundedJson = {
    values: [],
    error: undefined,
    blank: true,
    cutStrings: 0,
    droppedValues: false,
    members: new Map(),
    bytes: 0,
  };
  private budget = KEPT_VALUE_BYTES;
  /** The current string, and whether it is a member's name. */
  private readonly string = new KeptString();
  private stringIsKey = false;
  private unicodeLeft = 0;
  private numberState = N_START;
  private numberText = '';
  private numberKept = true;
  private literal = '';
  private literalAt = 0;
  /** Whether the last top-level value was an object closed by the byte just before (glue may follow). */
  private glueable = false;
  /** The start of the value of the first top-level object's current member. */
  private memberStart = -1;
  private firstObjectDone = false;

  push(buf: Buffer, start: number, end: number): void {
    const base = this.result.bytes - start;
    this.result.bytes += end - start;
    let i = start;
    let segment = -1; // where the current string's unkept bytes of this piece start
    if (this.state === STRING || this.state === ESCAPE || this.state === UNICODE) segment = i;
    while (i < end) {
      const state = this.state;
      if (state === FAILED) return;
      if (state === STRING) {
        // The bulk of a huge line: scan to the next quote, backslash or control character.
        let j = i;
        while (j < end) {
          const c = buf[j]!;
          if (c === 0x22 || c === 0x5c || c < 0x20) break;
          j++;
        }
        if (j === end) {
          i = j;
          break;
        }
        const c = buf[j]!;
        if (c === 0x22) {
          this.string.keep(buf, segment, j);
          segment = -1;
          i = j + 1;
          this.endString(base + i);
          continue;
        }
        if (c === 0x5c) {
          this.state = ESCAPE;
          i = j + 1;
          continue;
        }
        this.fail(`a control character inside a string at byte ${base + j}`);
        return;
      }
      const c = buf[i]!;
      switch (state) {
        case ESCAPE:
          if (c === 0x75) {
            this.state = UNICODE;
            this.unicodeLeft = 4;
          } else if (ESCAPABLE.has(c)) this.state = STRING;
          else {
            this.fail(`a bad escape at byte ${base + i}`);
            return;
          }
          i++;
          continue;
        case UNICODE:
          if (!isHex(c)) {
            this.fail(`a bad \\u escape at byte ${base + i}`);
            return;
          }
          if (--this.unicodeLeft === 0) this.state = STRING;
          i++;
          continue;
        case NUMBER: {
          // Digits come in runs: step through them here, and keep the text once per piece.
          let j = i;
          let numberState = this.numberState;
          for (; j < end; j++) {
            const next = numberStep(numberState, buf[j]!);
            if (next === -1) break;
            numberState = next;
          }
          this.numberState = numberState;
          if (this.numberKept && this.numberText.length <= KEPT_NUMBER_CHARS)
            this.numberText += buf.toString('latin1', i, Math.min(j, i + KEPT_NUMBER_CHARS + 1));
          i = j;
          if (j === end) continue;
          if (!numberEnds(numberState)) {
            this.fail(`a malformed number at byte ${base + j}`);
            return;
          }
          this.endNumber(base + j);
          continue; // the byte that ended the number is read again
        }
        case LITERAL:
          if (c !== this.literal.charCodeAt(this.literalAt)) {
            this.fail(`unexpected bytes at byte ${base + i}`);
            return;
          }
          i++;
          if (++this.literalAt === this.literal.length)
            this.endValue(this.literal === 'true' ? true : this.literal === 'false' ? false : null, base + i, 0);
          continue;
      }
      if (isSpace(c)) {
        if (state === TOP_END) this.glueable = false;
        i++;
        continue;
      }
      this.result.blank = false;
      switch (state) {
        case ARRAY_START:
        case VALUE:
          if (c === 0x5d && state === ARRAY_START) this.closeContainer(base + i + 1);
          else this.beginValue(c, base + i);
          if (this.state === STRING) segment = i + 1;
          if (this.state !== NUMBER) i++;
          continue;
        case KEY_OR_END:
        case KEY:
          if (c === 0x22) {
            this.beginString(true);
            segment = i + 1;
          } else if (c === 0x7d && state === KEY_OR_END) this.closeContainer(base + i + 1);
          else {
            this.fail(`expected a member name at byte ${base + i}`);
            return;
          }
          i++;
          continue;
        case COLON:
          if (c !== 0x3a) {
            this.fail(`expected ":" at byte ${base + i}`);
            return;
          }
          this.state = VALUE;
          i++;
          continue;
        case AFTER_VALUE: {
          const frame = this.stack[this.stack.length - 1]!;
          if (c === 0x2c) this.state = frame.array ? VALUE : KEY;
          else if (c === (frame.array ? 0x5d : 0x7d)) this.closeContainer(base + i + 1);
          else {
            this.fail(`expected "," or "${frame.array ? ']' : '}'}" at byte ${base + i}`);
            return;
          }
          i++;
          continue;
        }
        case TOP_END:
          if (c === 0x7b && this.glueable) {
            // Objects glued on one line (pi before 0.84.4): the next one starts.
            this.beginValue(c, base + i);
            i++;
            continue;
          }
          {
            this.fail(`more bytes after the value at byte ${base + i}`);
            return;
          }
      }
    }
    if (segment !== -1) this.string.keep(buf, segment, end);
  }

  end(): BoundedJson {
    const result = this.result;
    if (this.state === NUMBER && this.stack.length === 0 && numberEnds(this.numberState)) this.endNumber(result.bytes);
    if (this.state === FAILED || result.blank) return result;
    if (this.state !== TOP_END) {
      result.error = `the line ends in the middle of a value (after ${result.bytes} bytes)`;
      result.values = [];
    }
    return result;
  }

  private fail(why: string): void {
    this.state = FAILED;
    this.result.error = why;
    this.result.values = [];
    this.stack.length = 0;
  }

  /** Whether a value begun now may be kept (its container is, and the budget is not spent). */
  private keeping(): boolean {
    const top = this.stack[this.stack.length - 1];
    return (top === undefined || top.value !== undefined) && this.budget > 0;
  }

  private beginValue(c: number, at: number): void {
    if (this.stack.length === 1 && !this.firstObjectDone && !this.stack[0]!.array) this.memberStart = at;
    if (c === 0x7b || c === 0x5b) {
      const keep = this.keeping();
      if (!keep) this.result.droppedValues = true;
      const array = c === 0x5b;
      this.stack.push({ array, value: keep ? (array ? [] : {}) : undefined, key: '' });
      this.budget -= 8;
      this.state = array ? ARRAY_START : KEY_OR_END;
      return;
    }
    if (c === 0x22) {
      this.beginString(false);
      return;
    }
    if (c === 0x2d || isDigit(c)) {
      // The first byte is read again in the NUMBER state.
      this.state = NUMBER;
      this.numberState = N_START;
      this.numberText = '';
      this.numberKept = this.keeping();
      return;
    }
    const literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : '';
    if (literal === '') {
      this.fail(`unexpected byte 0x${c.toString(16).padStart(2, '0')} at byte ${at}`);
      return;
    }
    this.state = LITERAL;
    this.literal = literal;
    this.literalAt = 1;
  }

  private beginString(isKey: boolean): void {
    this.state = STRING;
    this.stringIsKey = isKey;
    // A member name is always kept (a writer looks members up by name), up to the string bound.
    this.string.begin(isKey ? KEPT_STRING_BYTES : this.keeping() ? Math.min(KEPT_STRING_BYTES, this.budget) : 0);
  }

  private endString(after: number): void {
    const text = this.string.end();
    if (this.string.cut && text !== undefined) this.result.cutStrings++;
    if (this.stringIsKey) {
      this.stack[this.stack.length - 1]!.key = text ?? '';
      this.state = COLON;
      return;
    }
    if (text === undefined) {
      this.result.droppedValues = true;
      this.endValue(undefined, after, 0);
      return;
    }
    this.endValue(text, after, this.string.keptBytes);
  }

  private endNumber(after: number): void {
    const text = this.numberText;
    if (!this.numberKept || text.length > KEPT_NUMBER_CHARS) {
      this.result.droppedValues = true;
      this.endValue(undefined, after, 0);
    } else this.endValue(Number(text), after, 8);
  }

  /** A value is complete: it goes into its container (or to the top level). */
  private endValue(value: unknown, after: number, cost: number): void {
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      this.result.values.push(value);
      this.state = TOP_END;
      this.glueable = false;
      return;
    }
    this.state = AFTER_VALUE;
    if (this.stack.length === 1 && !this.firstObjectDone && !frame.array) this.noteMember(frame.key, after);
    if (frame.value === undefined) return;
    if (value === undefined || this.budget <= 0) {
      this.result.droppedValues = true;
      return;
    }
    this.budget -= cost + (frame.array ? 0 : frame.key.length);
    if (frame.array) (frame.value as unknown[]).push(value);
    else setMember(frame.value as Record<string, unknown>, frame.key, value);
  }

  private noteMember(key: string, after: number): void {
    const members = this.result.members;
    if (members.size < TRACKED_MEMBERS || members.has(key)) {
      members.delete(key); // a repeated key: the last one is the one JSON.parse keeps
      members.set(key, { start: this.memberStart, end: after });
    }
  }

  private closeContainer(after: number): void {
    const frame = this.stack.pop()!;
    const value = frame.value;
    if (this.stack.length === 0) {
      if (!frame.array) this.firstObjectDone = true;
      this.result.values.push(value ?? (frame.array ? [] : {}));
      this.state = TOP_END;
      this.glueable = !frame.array;
      return;
    }
    this.endValue(value, after, 0);
  }
}

/** Parses a whole line with the bounded parser (tests; the reader feeds it piece by piece). */
export function parseBounded(buf: Buffer, start = 0, end = buf.length): BoundedJson {
  const parser = new BoundedJsonParser();
  parser.push(buf, start, end);
  return parser.end();
}
