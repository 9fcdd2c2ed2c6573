/**
 * The small pieces of JSON's grammar the bounded parser (bounded-json.ts) steps through byte by
 * byte: numbers as a state machine, escapes, whitespace, and how a kept string or member becomes
 * a value exactly as JSON.parse makes it.
 */
// Number grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
export const N_START = 0;
export const N_MINUS = 1;
export const N_ZERO = 2;
export const N_INT = 3;
export const N_DOT = 4;
export const N_FRAC = 5;
export const N_E = 6;
export const N_ESIGN = 7;
export const N_EXP = 8;
export const numberEnds = (state: number): boolean =>
  state === N_ZERO || state === N_INT || state === N_FRAC || state === N_EXP;
export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

export function numberStep(state: number, c: number): number {
  switch (state) {
    case N_START:
      return c === 0x2d ? N_MINUS : c === 0x30 ? N_ZERO : isDigit(c) ? N_INT : -1;
    case N_MINUS:
      return c === 0x30 ? N_ZERO : isDigit(c) ? N_INT : -1;
    case N_ZERO:
      return c === 0x2e ? N_DOT : c === 0x65 || c === 0x45 ? N_E : -1;
    case N_INT:
      return isDigit(c) ? N_INT : c === 0x2e ? N_DOT : c === 0x65 || c === 0x45 ? N_E : -1;
    case N_DOT:
      return isDigit(c) ? N_FRAC : -1;
    case N_FRAC:
      return isDigit(c) ? N_FRAC : c === 0x65 || c === 0x45 ? N_E : -1;
    case N_E:
      return c === 0x2b || c === 0x2d ? N_ESIGN : isDigit(c) ? N_EXP : -1;
    case N_ESIGN:
    case N_EXP:
      return isDigit(c) ? N_EXP : -1;
    default:
      return -1;
  }
}

export const ESCAPABLE = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
export const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
export const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;

/** Decodes the kept JSON text of a string (cut anywhere: at a UTF-8 sequence or an escape). */
export function decodeKept(raw: Buffer, cut: boolean): string {
  let end = raw.length;
  if (cut) {
    // Back to the start of a UTF-8 sequence, then drop that sequence: it may be incomplete.
    while (end > 0 && (raw[end - 1]! & 0xc0) === 0x80) end--;
    if (end > 0 && raw[end - 1]! >= 0xc0) end--;
  }
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      return JSON.parse(`"${raw.toString('utf8', 0, end)}"`) as string;
    } catch {
      // Cut inside an escape: drop it (the bytes were checked already, so only the tail can fail).
      const backslash = raw.lastIndexOf(0x5c, end - 1);
      if (!cut || backslash === -1) break;
      end = backslash;
    }
  }
  return raw.toString('utf8', 0, end);
}

/** `object[key] = value` as JSON.parse does it: `__proto__` is an own member, not the prototype. */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
