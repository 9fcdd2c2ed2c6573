/**
 * The files a real store collects besides healthy v3 sessions: legacy version-1 and version-2
 * sessions (which pi migrates on open) and one malformed file of each kind a reader must survive,
 * plus non-session clutter. Each is derived from a small healthy session, so only the defect
 * differs.
 */
import type { Rng } from './random.js';
import { type Line, type SessionWriter, serializeLines } from './session-writer.js';

export interface OddFile {
  /** File name inside the project folder. */
  name: string;
  content: string | Buffer;
  /** `legacy-v1`, `legacy-v2`, `broken:<kind>`, `clutter`. */
  kind: string;
}

/**
 * Version 2: the same tree with `version: 2`, and one message in the old `hookMessage` role
 * (pi 1.6 renames it to `custom` when migrating).
 */
export function legacyV2(session: SessionWriter): string {
  const [header, ...entries] = session.lines;
  const lines: Line[] = [{ ...header, version: 2 }, ...entries];
  const last = lines[lines.length - 1]!;
  lines.push({
    type: 'message',
    id: session.newId(),
    parentId: last['id'],
    timestamp: last['timestamp'],
    message: {
      role: 'hookMessage',
      customType: 'lint-hook',
      content: 'lint: 0 problems',
      display: true,
      timestamp: Date.parse(last['timestamp'] as string),
    },
  });
  return serializeLines(lines);
}

/**
 * Version 1: no `version`, no ids, entries in one line (the path to the leaf); a compaction points
 * at the line it keeps from by index (`firstKeptEntryIndex`, the header being line 0).
 */
export function legacyV1(session: SessionWriter): string {
  const { version: _version, ...header } = session.header;
  const path = session
    .path()
    .filter((l) => l['type'] !== 'label' && l['type'] !== 'branch_summary' && l['type'] !== 'session_info');
  const lines: Line[] = [header];
  for (const entry of path) {
    const { id: _id, parentId: _parentId, ...rest } = entry;
    if (rest['type'] === 'compaction') {
      const { firstKeptEntryId, ...compaction } = rest;
      const index = path.findIndex((e) => e['id'] === firstKeptEntryId);
      lines.push({ ...compaction, firstKeptEntryIndex: index + 1 });
    } else lines.push(rest);
  }
  return serializeLines(lines);
}

/**
 * One malformed variant of `text` (a healthy session) per kind, named after the kind; each variant
 * gets its own session id, as distinct files on a real machine would.
 */
export function brokenFiles(text: string, rng: Rng, stem: string): OddFile[] {
  const healthy = text.split('\n').filter((l) => l !== '');
  const headerId = (JSON.parse(healthy[0]!) as Line)['id'] as string;
  const join = (ls: string[]): string => ls.map((l) => `${l}\n`).join('');
  const kinds: Record<string, (lines: string[]) => string | Buffer> = {
    'truncated-last-line': (ls) => join(ls.slice(0, -1)) + ls.at(-1)!.slice(0, Math.floor(ls.at(-1)!.length / 2)),
    'garbage-line': (ls) => join([...ls.slice(0, 2), 'this is not JSON {', ...ls.slice(2)]),
    'empty-file': () => '',
    'no-header': (ls) => join(ls.slice(1)),
    'non-utf8': (ls) =>
      Buffer.concat([
        Buffer.from(join(ls.slice(0, 2))),
        Buffer.from([0xff, 0xfe, 0x80, 0x0a]),
        Buffer.from(join(ls.slice(2))),
      ]),
    crlf: (ls) => ls.map((l) => `${l}\r\n`).join(''),
    'blank-lines': (ls) => ls.map((l) => `${l}\n\n`).join(''),
    bom: (ls) => `\ufeff${join(ls)}`,
    'header-only': (ls) => join(ls.slice(0, 1)),
    'orphan-parent': (ls) =>
      join([...ls, JSON.stringify({ ...(JSON.parse(ls[2]!) as Line), id: rng.hex(8), parentId: 'ffffffff' })]),
    'duplicated-line': (ls) => join([...ls.slice(0, 3), ls[2]!, ...ls.slice(3)]),
    'bad-header-json': (ls) => join([ls[0]!.slice(0, -3), ...ls.slice(1)]),
    'no-trailing-newline': (ls) => ls.join('\n'),
  };
  const files: OddFile[] = Object.entries(kinds).map(([kind, make], index) => {
    const id = `${headerId.slice(0, -4)}${index.toString(16).padStart(4, '0')}`;
    const lines = [healthy[0]!.replace(headerId, id), ...healthy.slice(1)];
    return { name: `${stem.replace(headerId, id)}_${kind}.jsonl`, content: make(lines), kind: `broken:${kind}` };
  });
  files.push({ name: 'notes.txt', content: 'Not a session: pi only reads *.jsonl.\n', kind: 'clutter' });
  files.push({ name: `${stem}.jsonl.bak`, content: text, kind: 'clutter' });
  return files;
}
