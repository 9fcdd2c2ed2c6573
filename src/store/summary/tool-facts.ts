/**
 * What the listing keeps of a session's tool use, for the picker's `tool:`, `file:` and `out:`:
 * the tool names called, the paths and bash commands they touched, and a bounded sample of their
 * output text.
 *
 * Bounds, because tool output is most of a session's bytes and the catalogue keeps all of this:
 * each output contributes its first OUTPUT_PER_CALL bytes, a session at most OUTPUT_PER_SESSION;
 * a bash command at most TARGET_CHARS characters, a session at most TARGETS_PER_SESSION targets.
 * A toolResult line is never parsed whole for this (the listing's shortcut skips parsing them):
 * only the start of its first text block is decoded (`boundedJsonString`).
 *
 * A listing that leaves the search texts for later (summary.ts, `on-demand`) keeps the tool names
 * alone: they are a row's field, the targets and output text only feed a search.
 */
import { isObject } from '../entry.js';
import type { JsonObject } from '../types.js';

export const OUTPUT_PER_CALL = 240;
export const OUTPUT_PER_SESSION = 8 * 1024;
export const TARGET_CHARS = 240;
export const TARGETS_PER_SESSION = 200;

/** Argument names of pi's tools (and common others) that hold a path. */
const PATH_ARGUMENTS = ['path', 'file_path', 'filePath', 'file'];

export class ToolFacts {
  readonly tools: string[] = [];
  private readonly targetSet = new Set<string>();
  private outputParts: string[] = [];
  private outputBytes = 0;

  /** `keepsTexts` false: only `tools` is gathered, `toolTargets` and `toolOutputText` stay ''. */
  constructor(private readonly keepsTexts = true) {}

  /** Continues from a previous run's `tools`, `toolTargets` and `toolOutputText` (the catalogue's resume). */
  static resume(tools: readonly string[], targets: string, output: string): ToolFacts {
    const facts = new ToolFacts();
    facts.tools.push(...tools);
    if (targets !== '') for (const target of targets.split('\n')) facts.targetSet.add(target);
    if (output !== '') {
      facts.outputParts = [output];
      facts.outputBytes = Buffer.byteLength(output);
    }
    return facts;
  }

  /** The tool calls of an assistant message's content. */
  addCalls(content: unknown): void {
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObject(block) || block['type'] !== 'toolCall') continue;
      const name = block['name'];
      if (typeof name === 'string' && name !== '' && !this.tools.includes(name)) this.tools.push(name);
      const args = block['arguments'];
      if (this.keepsTexts && isObject(args)) this.addArguments(args);
    }
  }

  private addArguments(args: JsonObject): void {
    for (const key of PATH_ARGUMENTS) {
      const value = args[key];
      if (typeof value === 'string') this.addTarget(value);
    }
    const paths = args['paths'];
    if (Array.isArray(paths)) for (const path of paths) if (typeof path === 'string') this.addTarget(path);
    const command = args['command'];
    if (typeof command === 'string') this.addTarget(command);
  }

  /** A path or a command (a user's `!command` too); one line, bounded. */
  addTarget(text: string): void {
    if (!this.keepsTexts || this.targetSet.size >= TARGETS_PER_SESSION) return;
    const line = wellFormed(text.replace(/\s+/g, ' ').trim().slice(0, TARGET_CHARS));
    if (line !== '') this.targetSet.add(line);
  }

  /** Whether more output text would be kept (callers skip decoding it otherwise). */
  get wantsOutput(): boolean {
    return this.keepsTexts && this.outputBytes + 1 < OUTPUT_PER_SESSION;
  }

  /** Some output text: its first OUTPUT_PER_CALL bytes count, while the session has room. */
  addOutput(text: string): void {
    if (!this.keepsTexts) return;
    const separator = this.outputParts.length > 0 ? 1 : 0;
    const room = Math.min(OUTPUT_PER_CALL, OUTPUT_PER_SESSION - this.outputBytes - separator);
    if (room <= 0 || text === '') return;
    const kept = wellFormed(utf8Prefix(text, room));
    if (kept === '') return;
    // Counted as the joined text's bytes (a space between parts), so a resumed run agrees.
    this.outputBytes += Buffer.byteLength(kept) + separator;
    this.outputParts.push(kept);
  }

  get toolTargets(): string {
    return [...this.targetSet].join('\n');
  }

  get toolOutputText(): string {
    return this.outputParts.join(' ');
  }
}

/** The longest prefix of `text` that is at most `bytes` bytes of UTF-8 (never half a character). */
function utf8Prefix(text: string, bytes: number): string {
  if (text.length * 3 <= bytes) return text;
  const head = text.slice(0, bytes);
  const buf = Buffer.from(head);
  if (buf.length <= bytes) return head;
  return trimBroken(buf.subarray(0, bytes).toString('utf8'));
}

const trimBroken = (s: string): string => s.replace(/\uFFFD+$/, '');

/** Lone surrogates as U+FFFD, what the catalogue's UTF-8 would make of them (so a warm row equals a fresh one). */
const wellFormed = (s: string): string =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\uFFFD');

const TEXT_KEY = Buffer.from('"text":"');

/**
 * The start (at most `maxBytes` bytes) of the first `"text":"…"` string in `buf[from, end)`,
 * decoded, without parsing the line. An escape or a character cut by the bound is dropped;
 * anything that does not decode gives ''.
 */
export function boundedJsonString(buf: Buffer, from: number, end: number, maxBytes: number): string {
  const key = buf.subarray(from, end).indexOf(TEXT_KEY);
  if (key === -1) return '';
  const start = from + key + TEXT_KEY.length;
  const limit = Math.min(end, start + maxBytes);
  let i = start;
  let closed = false;
  while (i < limit) {
    const byte = buf[i]!;
    if (byte === 0x22 /* " */) {
      closed = true;
      break;
    }
    i += byte === 0x5c /* \ */ ? 2 : 1;
  }
  let raw = buf.toString('utf8', start, Math.min(i, limit));
  if (!closed) {
    // Drop a cut escape (`\`, `\u00`): a whole one is at most six characters.
    raw = raw.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
    raw = trimBroken(raw);
  }
  try {
    return trimBroken(JSON.parse(`"${raw}"`) as string);
  } catch {
    return '';
  }
}
