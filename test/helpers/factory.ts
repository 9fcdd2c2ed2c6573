/**
 * A hand-written session factory for tests: builds pi-shaped JSONL (pi's key order, 8-hex ids,
 * ISO entry timestamps, epoch-ms message timestamps) with explicit control over the leaf, so a
 * test reads like the scenario it checks. Deterministic: ids and times come from counters.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

type Json = Record<string, unknown>;

export interface BuilderOptions {
  id?: string;
  cwd?: string;
  /** Header version; `null` writes no version (format v1). */
  version?: number | null;
  startMs?: number;
  parentSession?: string;
}

export class SessionBuilder {
  readonly header: Json;
  readonly lines: string[] = [];
  leaf: string | null = null;
  private counter = 0;
  private clock: number;

  constructor(options: BuilderOptions = {}) {
    this.clock = options.startMs ?? Date.UTC(2026, 0, 5, 9, 0, 0);
    this.header = { type: 'session' };
    if (options.version !== null) this.header['version'] = options.version ?? 3;
    this.header['id'] = options.id ?? '019b0000-0000-7000-8000-000000000001';
    this.header['timestamp'] = new Date(this.clock).toISOString();
    this.header['cwd'] = options.cwd ?? '/home/test/project';
    if (options.parentSession) this.header['parentSession'] = options.parentSession;
    this.lines.push(JSON.stringify(this.header));
  }

  private nextId(): string {
    this.counter++;
    return this.counter.toString(16).padStart(8, '0');
  }

  private now(): { iso: string; ms: number } {
    this.clock += 1000;
    return { iso: new Date(this.clock).toISOString(), ms: this.clock };
  }

  /** Appends an entry under the current leaf (or `parentId`) and moves the leaf to it. */
  entry(type: string, fields: Json = {}, parentId: string | null = this.leaf): string {
    const id = this.nextId();
    const { iso } = this.now();
    this.lines.push(JSON.stringify({ type, id, parentId, timestamp: iso, ...fields }));
    this.leaf = id;
    return id;
  }

  user(text: string | Json[]): string {
    return this.entry('message', { message: { role: 'user', content: text, timestamp: this.clock + 1000 } });
  }

  assistant(text: string, options: { model?: string; provider?: string; tokens?: number; cost?: number } = {}): string {
    const tokens = options.tokens ?? 100;
    return this.entry('message', {
      message: {
        role: 'assistant',
        content: [{ type: 'text', text }],
        api: 'anthropic-messages',
        provider: options.provider ?? 'anthropic',
        model: options.model ?? 'claude-sonnet-4-5',
        usage: {
          input: tokens / 2,
          output: tokens / 2,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: tokens,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: options.cost ?? 0.01 },
        },
        stopReason: 'stop',
        timestamp: this.clock + 1000,
      },
    });
  }

  toolCall(name: string, args: Json): string {
    return this.entry('message', {
      message: {
        role: 'assistant',
        content: [{ type: 'toolCall', id: `call_${this.counter + 1}`, name, arguments: args }],
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage: {
          input: 10,
          output: 10,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 20,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
        },
        stopReason: 'toolUse',
        timestamp: this.clock + 1000,
      },
    });
  }

  toolResult(toolName: string, text: string, toolCallId = `call_${this.counter}`): string {
    return this.entry('message', {
      message: {
        role: 'toolResult',
        toolCallId,
        toolName,
        content: [{ type: 'text', text }],
        isError: false,
        timestamp: this.clock + 1000,
      },
    });
  }

  label(targetId: string, label?: string): string {
    return this.entry('label', label === undefined ? { targetId } : { targetId, label });
  }

  name(name: string): string {
    return this.entry('session_info', { name });
  }

  compaction(summary: string, firstKeptEntryId: string, tokensBefore = 1000): string {
    return this.entry('compaction', { summary, firstKeptEntryId, tokensBefore });
  }

  branchSummary(summary: string, parentId: string | null, fromId = this.leaf ?? 'root'): string {
    return this.entry('branch_summary', { fromId, summary }, parentId);
  }

  /** Moves the leaf (like pi's in-memory branch()): the next entry hangs under `id`. */
  branchFrom(id: string | null): this {
    this.leaf = id;
    return this;
  }

  /** A raw physical line (broken input). */
  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(trailingNewline = true): string {
    return this.lines.join('\n') + (trailingNewline ? '\n' : '');
  }

  writeTo(path: string, trailingNewline = true): string {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, this.text(trailingNewline));
    return path;
  }
}

const madeTempDirs: string[] = [];

let tempDirCounter = 0;

/**
 * A fresh temporary directory for one test. It is removed after the test file has run
 * (test/setup.ts calls removeTempDirs), so no test has to remember to.
 *
 * Named by digits only (the worker's pid and a counter), unlike mkdtemp's random letters: tests
 * search sessions whose cwd lies under these folders, and the picker's abbreviation tier matches
 * any in-order letters of a cwd, so random letters would make a query like `retry` match at random.
 */
export function tempDir(prefix = 'pi-sessions-test-'): string {
  for (;;) {
    const dir = join(tmpdir(), `${prefix}${process.pid}-${++tempDirCounter}`);
    try {
      mkdirSync(dir, { mode: 0o700 });
      madeTempDirs.push(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Removes every directory tempDir made so far in this test file. */
export function removeTempDirs(): void {
  for (const dir of madeTempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
