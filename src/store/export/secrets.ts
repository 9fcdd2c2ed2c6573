/**
 * Finding credentials in sessions with secretlint's recommended rule set (@secretlint/core and
 * @secretlint/secretlint-rule-preset-recommend, bundled, loaded only when a scan runs:
 * secret-rules.ts): API keys of the major providers, private keys, tokens, basic-auth URLs,
 * connection strings. What is scanned is every string an entry holds (message text, thinking,
 * tool arguments, tool output, summaries, custom messages), minus the opaque ones that are never
 * text a person or a tool wrote (ids, signatures, image data). A finding names its entry, line and
 * kind and carries only a masked preview; the secret itself stays in `secrets` (what redaction
 * replaces), which no report prints.
 */
import { createHash } from 'node:crypto';
import { isObject } from '../entry.js';
import type { JsonObject, LoadedSession, SessionEntry } from '../types.js';
import { mayHoldSecret } from './markers.js';

/** One credential found, without the credential. */
export interface SecretFinding {
  entryId: string;
  /** 1-based line of the entry in the file. */
  line: number;
  /** The kind, as secretlint names it (GITHUB_TOKEN, AWSSecretAccessKey, PrivateKey…). */
  kind: string;
  /** Its first characters when they say nothing (a prefix like `ghp_`), the rest as stars, and its length. */
  masked: string;
}

export interface SecretScan {
  findings: SecretFinding[];
  /** Each secret found (the exact text) → what redaction puts in its place. Never printed. */
  secrets: Map<string, string>;
}

type SecretRules = typeof import('./secret-rules.js');
let rules: Promise<SecretRules> | undefined;

/** secretlint and its rules, loaded on the first scan (a dynamic import: a lazy chunk of the bundle). */
function loadRules(): Promise<SecretRules> {
  rules ??= import('./secret-rules.js');
  return rules;
}

/**
 * What a kept scan result was found with: our scanner's own rules (which strings, how a secret is
 * masked: SCANNER_REVISION, raised when they change) and the source of each secretlint rule, so a
 * result cached by another version of either is scanned again instead of trusted. Loads the rules.
 */
const SCANNER_REVISION = 2;
let rulesId: Promise<string> | undefined;
export function secretRulesId(): Promise<string> {
  rulesId ??= loadRules().then(({ RULE_SOURCES }) =>
    createHash('sha1').update(`${SCANNER_REVISION}\n`).update(RULE_SOURCES).digest('hex').slice(0, 16),
  );
  return rulesId;
}

/** Keys whose strings are opaque provider or bookkeeping data, never text that can hold a pasted secret. */
const OPAQUE_KEYS = new Set([
  'id',
  'parentId',
  'timestamp',
  'type',
  'role',
  'api',
  'provider',
  'model',
  'modelId',
  'responseId',
  'stopReason',
  'toolCallId',
  'fromId',
  'targetId',
  'firstKeptEntryId',
  'textSignature',
  'thinkingSignature',
  'thoughtSignature',
  'signature',
  'mimeType',
]);

/** The strings of one entry worth scanning, in document order. */
export function scannableStrings(value: unknown, out: string[] = [], key?: string): string[] {
  if (typeof value === 'string') {
    if (key === undefined || !OPAQUE_KEYS.has(key)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) scannableStrings(item, out);
  } else if (isObject(value)) {
    // An image's base64 data is not text (and its random letters would look like keys).
    const image = (value as JsonObject)['type'] === 'image';
    for (const [k, v] of Object.entries(value)) {
      if (image && k === 'data') continue;
      if (k === 'encrypted_content' || k === 'redacted') continue;
      scannableStrings(v, out, k);
    }
  }
  return out;
}

/**
 * The masked preview of a secret: its kind's prefix when it has one (`ghp_`, `sk-`, `xoxb-`,
 * `postgres:`: up to the first `_ - . :` in its first 10 characters), stars, and its length. A
 * random key with no prefix shows nothing of itself.
 */
export function maskSecret(secret: string): string {
  const prefix = /^[A-Za-z0-9]{1,9}[_\-.:]/.exec(secret.slice(0, 10))?.[0] ?? '';
  const shown = secret.length >= 16 ? prefix : '';
  return `${shown}${'*'.repeat(Math.min(12, secret.length - shown.length))} (${secret.length} characters)`;
}

/**
 * A key's placeholder, as READMEs and .env.example files write one: after its prefix (`ghp_`,
 * `sk-`, `xoxb-`) one character over and over (`ghp_XXXX…`, `sk-xxxx…`, `…0000`). A rule matches
 * it for its shape; no provider issues such a key.
 */
export function isPlaceholder(secret: string): boolean {
  const rest = secret.replace(/^(?:[A-Za-z0-9]{1,9}[_-])+/, '');
  return rest.length >= 8 && /^(.)\1*$/s.test(rest);
}

/** What a redacted secret becomes: plain ASCII, so it fits any JSON string and any format. */
export function redactionMark(kind: string): string {
  return `[REDACTED ${kind.replace(/[^\w-]/g, '_')}]`;
}

/** Texts are handed to secretlint in pieces of about this size (its cost is per character; few calls). */
const PIECE_CHARS = 4 * 1024 * 1024;
/** Between two strings: no rule matches across an empty line and a NUL. */
const SEPARATOR = '\n\n\u0000\n\n';

interface Piece {
  text: string;
  /** Start offset in `text` of each entry's strings, with the entry. */
  starts: { at: number; entryId: string; line: number }[];
}

/**
 * The secret of a finding: the rule's own capture (`data`: KEY, TOKEN, URI…) where it is in the
 * text near the match (a rule's range can start at a variable name before the key), else the range.
 */
function secretOf(text: string, start: number, end: number, data: unknown): string {
  let best = '';
  if (data !== null && typeof data === 'object')
    for (const value of Object.values(data)) {
      if (typeof value !== 'string' || value.length <= best.length || value.length < 8) continue;
      const at = text.indexOf(value, Math.max(0, start - value.length));
      if (at >= 0 && at <= end + value.length) best = value;
    }
  return best || text.slice(start, end);
}

async function scanPiece(piece: Piece, scan: SecretScan): Promise<void> {
  const { lintText } = await loadRules();
  for (const message of await lintText(piece.text)) {
    const [start, end] = message.range;
    const secret = secretOf(piece.text, start, end, message.data);
    if (secret === '' || secret.includes('\u0000') || isPlaceholder(secret)) continue;
    // The entry whose strings hold the start (the last one starting at or before it).
    let low = 0;
    let high = piece.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (piece.starts[mid]!.at <= start) low = mid;
      else high = mid - 1;
    }
    const owner = piece.starts[low]!;
    const kind = message.messageId;
    scan.findings.push({ entryId: owner.entryId, line: owner.line, kind, masked: maskSecret(secret) });
    if (!scan.secrets.has(secret)) scan.secrets.set(secret, redactionMark(kind));
  }
}

export interface SecretScanOptions {
  /**
   * false: every string goes to secretlint, not only those holding a rule's marker (markers.ts);
   * the same findings, many times slower (the tests compare the two).
   */
  prefilter?: boolean;
}

/** Scans entries (with their file lines) for secrets; findings in entry order. */
export async function scanEntries(
  entries: readonly { entry: SessionEntry; line: number }[],
  options: SecretScanOptions = {},
): Promise<SecretScan> {
  const wanted =
    options.prefilter === false ? (s: string) => s.length >= 8 : (s: string) => s.length >= 8 && mayHoldSecret(s);
  const scan: SecretScan = { findings: [], secrets: new Map() };
  let piece: Piece = { text: '', starts: [] };
  const parts: string[] = [];
  let length = 0;
  const flush = async (): Promise<void> => {
    if (piece.starts.length === 0) return;
    piece.text = parts.join('');
    await scanPiece(piece, scan);
    parts.length = 0;
    length = 0;
    piece = { text: '', starts: [] };
  };
  for (const { entry, line } of entries) {
    const strings = scannableStrings(entry).filter(wanted);
    if (strings.length === 0) continue;
    piece.starts.push({ at: length, entryId: entry.id, line });
    for (const s of strings) {
      parts.push(s, SEPARATOR);
      length += s.length + SEPARATOR.length;
    }
    if (length >= PIECE_CHARS) await flush();
  }
  await flush();
  // Pieces are scanned in order and rules report in text order per rule: sort by line for reading.
  scan.findings.sort((a, b) => a.line - b.line);
  return scan;
}

/** Every entry of a loaded session, scanned. */
export function scanSession(session: LoadedSession, options: SecretScanOptions = {}): Promise<SecretScan> {
  return scanEntries(
    session.entries.map((entry, i) => ({ entry, line: session.entryLines[i]! })),
    options,
  );
}
