/**
 * A whole sessions root (the equivalent of `~/.pi/agent/sessions`), deterministic for given
 * options: the demo store, the stores of the end-to-end tests and the bench's stores all come from
 * here. `planStore` is pure and lazy (a 10,000-session store never sits in memory at once);
 * `writeStore` is the only part that touches the disk.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeCwd } from '../../store/index.js';
import { projectCwd } from './content.js';
import { brokenFiles, legacyV1, legacyV2 } from './odd-files.js';
import { Rng } from './random.js';
import { playSession } from './session.js';
import { forkedLines, iso, SessionWriter, serializeLines, sessionFileName } from './session-writer.js';

export interface StoreOptions {
  /** Project folders (cwds). Default 8. */
  projects?: number;
  /** Healthy v3 sessions in total, spread unevenly over the projects. Default 100. */
  sessions?: number;
  /** Average entries per session (header excluded). Default 150. */
  entries?: number;
  /** Median size of read/bash tool outputs in bytes. Default 2048. */
  toolBytes?: number;
  seed?: number;
  /** Also one extra session of about this many MiB in the first project (0: none). */
  oneBigMb?: number;
  /** Median tool output size inside the big session. Default: toolBytes. */
  bigToolBytes?: number;
  /** Share of sessions that are forks of an earlier session (`parentSession`). Default 0.04. */
  forkShare?: number;
  /** Also version-1 and version-2 sessions (at least 2 each). */
  legacy?: boolean;
  /** Also one malformed file of each kind, and non-session clutter. */
  broken?: boolean;
  /** Start of the time range of the sessions (epoch ms). Default 2026-01-05. */
  startMs?: number;
  /** Length of that range in days. Default 300. */
  days?: number;
}

export interface GeneratedFile {
  /** `<project folder>/<file name>`, relative to the sessions root. */
  relPath: string;
  content: string | Buffer;
  /** The file's modification time: its last entry's. */
  mtimeMs: number;
  /** `v3`, `fork`, `big`, `legacy-v1`, `legacy-v2`, `broken:<kind>`, `clutter`. */
  kind: string;
}

const DAY_MS = 86_400_000;

/** The files of the store for `options`, one at a time. `root` is only used for fork paths. */
export function* planStore(root: string, options: StoreOptions = {}): Generator<GeneratedFile> {
  const projects = Math.max(1, options.projects ?? 8);
  const sessions = options.sessions ?? 100;
  const entries = options.entries ?? 150;
  const toolBytes = options.toolBytes ?? 2048;
  const seed = options.seed ?? 1;
  const startMs = options.startMs ?? Date.UTC(2026, 0, 5, 9);
  const spanMs = (options.days ?? 300) * DAY_MS;
  const forkShare = options.forkShare ?? 0.04;
  // The latest session of each project: what a fork copies from.
  const latest = new Map<number, { writer: SessionWriter; path: string }>();
  const folder = (project: number): string => encodeCwd(projectCwd(project));

  for (let i = 0; i < sessions; i++) {
    const rng = Rng.derive(seed, i);
    // Uneven: a few projects get most sessions, as on a real machine.
    const project = Math.min(projects - 1, Math.floor(projects * rng.next() ** 1.6));
    const parent = latest.get(project);
    const fork = rng.chance(forkShare) && parent !== undefined && parent.writer.messagesOnPath('assistant').length > 1;
    let begin = startMs + Math.floor((spanMs * i) / Math.max(1, sessions)) + rng.int(0, 3_600_000);
    // A fork is made after the entries it copies.
    if (fork) begin = Math.max(begin, parent.writer.clockMs + rng.int(60_000, 3_600_000));
    const id = rng.uuidv7(begin);
    const cwd = projectCwd(project);
    let writer: SessionWriter;
    if (fork) {
      const leaf = rng.pick(parent.writer.messagesOnPath('assistant'));
      const header = { type: 'session', version: 3, id, timestamp: iso(begin), cwd, parentSession: parent.path };
      writer = new SessionWriter({
        id,
        cwd,
        startMs: begin,
        rng,
        lines: forkedLines(parent.writer, leaf, header, rng),
      });
      playSession(writer, rng, { entries: writer.entryCount + Math.max(2, Math.floor(entries / 4)), toolBytes });
    } else {
      writer = new SessionWriter({ id, cwd, startMs: begin, rng });
      // Log-normal sizes whose mean (not median) is `entries`: many short sessions, a few long ones.
      playSession(writer, rng, { entries: Math.max(4, rng.logNormal(entries * Math.exp(-0.18), 0.6)), toolBytes });
    }
    const relPath = join(folder(project), sessionFileName(begin, id));
    latest.set(project, { writer, path: join(root, relPath) });
    yield { relPath, content: serializeLines(writer.lines), mtimeMs: writer.clockMs, kind: fork ? 'fork' : 'v3' };
  }

  if (options.oneBigMb) {
    const rng = Rng.derive(seed, -1);
    const begin = startMs - 30 * DAY_MS;
    const writer = new SessionWriter({ id: rng.uuidv7(begin), cwd: projectCwd(0), startMs: begin, rng });
    playSession(writer, rng, {
      entries: 0,
      bytes: options.oneBigMb * 1024 * 1024,
      toolBytes: options.bigToolBytes ?? toolBytes,
      reasoning: true,
    });
    yield {
      relPath: join(folder(0), sessionFileName(begin, writer.options.id)),
      content: serializeLines(writer.lines),
      mtimeMs: writer.clockMs,
      kind: 'big',
    };
  }

  if (options.legacy) {
    const count = Math.max(2, Math.round(sessions * 0.02));
    for (let i = 0; i < 2 * count; i++) {
      const rng = Rng.derive(seed, -100 - i);
      const begin = startMs - (400 - i) * DAY_MS;
      const version = i < count ? 1 : 2;
      const id =
        version === 1 ? `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-a${rng.hex(3)}-${rng.hex(12)}` : rng.uuidv7(begin);
      const writer = new SessionWriter({ id, cwd: projectCwd(i % projects), startMs: begin, rng });
      playSession(writer, rng, { entries: 24, toolBytes: Math.min(toolBytes, 400) });
      const content = version === 1 ? legacyV1(writer) : legacyV2(writer);
      yield {
        relPath: join(folder(i % projects), sessionFileName(begin, id)),
        content,
        mtimeMs: writer.clockMs,
        kind: `legacy-v${version}`,
      };
    }
  }

  if (options.broken) {
    const rng = Rng.derive(seed, -1000);
    const begin = startMs - 10 * DAY_MS;
    const writer = new SessionWriter({ id: rng.uuidv7(begin), cwd: projectCwd(projects - 1), startMs: begin, rng });
    playSession(writer, rng, { entries: 12, toolBytes: 200 });
    const stem = sessionFileName(begin, writer.options.id).replace(/\.jsonl$/, '');
    for (const odd of brokenFiles(serializeLines(writer.lines), rng, stem)) {
      yield {
        relPath: join(folder(projects - 1), odd.name),
        content: odd.content,
        mtimeMs: writer.clockMs,
        kind: odd.kind,
      };
    }
  }
}

export interface WrittenStore {
  root: string;
  files: { path: string; kind: string }[];
}

/**
 * Writes the store for `options` under `root` (created if missing). `clean` first removes `root`
 * with everything in it (a half-written store of an interrupted run).
 */
export function writeStore(root: string, options: StoreOptions = {}, clean = false): WrittenStore {
  if (clean) rmSync(root, { recursive: true, force: true });
  const files: WrittenStore['files'] = [];
  for (const file of planStore(root, options)) {
    const path = join(root, file.relPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
    const mtime = new Date(file.mtimeMs);
    utimesSync(path, mtime, mtime);
    files.push({ path, kind: file.kind });
  }
  return { root, files };
}
