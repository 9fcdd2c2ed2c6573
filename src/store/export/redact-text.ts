/**
 * Replacing found secrets, pure. In a decoded string the secret is replaced as it is; in a raw
 * JSONL line as JSON writes it inside a string (a private key's newlines are `\n` there), so the
 * line stays valid JSON and every byte around the secret stays as it was.
 */
import type { JsonObject } from '../types.js';

/** The secrets longest first, so a secret inside a longer one never leaves the longer one's rest behind. */
function ordered(secrets: ReadonlyMap<string, string>): [string, string][] {
  return [...secrets].sort((a, b) => b[0].length - a[0].length);
}

/** `text` with every occurrence of every secret replaced by its mark. */
export function redactString(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [secret, mark] of ordered(secrets)) if (out.includes(secret)) out = out.split(secret).join(mark);
  return out;
}

/** A JSON value with every string redacted (keys included: a secret can be an object key). */
export function redactValue<T>(value: T, secrets: ReadonlyMap<string, string>): T {
  if (typeof value === 'string') return redactString(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[redactString(k, secrets)] = redactValue(v, secrets);
    return out as T;
  }
  return value;
}

/** How `secret` appears between the quotes of a JSON string written by JSON.stringify. */
function encoded(secret: string): string {
  return JSON.stringify(secret).slice(1, -1);
}

/**
 * A raw JSONL line with its secrets replaced where they stand; unchanged when none is in it.
 * When a secret appears only in a spelling JSON.stringify does not use (a `\u` escape, `\/`), the
 * line is parsed, redacted and written again whole (its key order kept): still valid, still the
 * same entry, only not byte-identical outside the secret.
 */
export function redactLine(line: string, secrets: ReadonlyMap<string, string>): string {
  let out = line;
  for (const [secret, mark] of ordered(secrets)) {
    const raw = encoded(secret);
    if (out.includes(raw)) out = out.split(raw).join(mark);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    return out;
  }
  const again = redactValue(parsed, secrets);
  return JSON.stringify(again) === JSON.stringify(parsed) ? out : JSON.stringify(again);
}
