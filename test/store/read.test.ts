/** Reading: every broken shape pi (any version) wrote gives problems, never a throw or a write. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildContext,
  buildTree,
  getBranch,
  type LoadedSession,
  type ProblemKind,
  type ReadResult,
  readSession,
  readSessionFromBuffer,
  readSessionSync,
  summarizeFileSync,
} from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

function loaded(result: ReadResult): LoadedSession {
  if (!result.ok) throw new Error(`expected a session, got ${result.reason}: ${result.message}`);
  return result;
}

function kinds(result: ReadResult): ProblemKind[] {
  return result.ok ? result.problems.map((p) => p.kind) : [];
}

function fromText(text: string | Buffer): ReadResult {
  return readSessionFromBuffer('/mem.jsonl', Buffer.isBuffer(text) ? text : Buffer.from(text));
}

describe('readSession on hostile input', () => {
  const base = (): SessionBuilder => {
    const b = new SessionBuilder();
    b.user('hello');
    b.assistant('hi');
    return b;
  };

  it('reads a clean file with no problems', () => {
    const s = loaded(fromText(base().text()));
    expect(s.entries.map((e) => e.type)).toEqual(['message', 'message']);
    expect(s.problems).toEqual([]);
    expect(s.endsWithNewline).toBe(true);
  });

  it('skips blank lines and CRLF line ends without complaint', () => {
    const text = `${base().lines.join('\r\n\r\n   \n')}\r\n`;
    const s = loaded(fromText(text));
    expect(s.entries).toHaveLength(2);
    expect(s.problems).toEqual([]);
  });

  it('reports an unparsable line with its line number and keeps going', () => {
    const b = base();
    b.raw('{"type":"message", this is not json');
    b.assistant('after');
    const s = loaded(fromText(b.text()));
    expect(s.entries).toHaveLength(3);
    expect(s.problems).toEqual([expect.objectContaining({ line: 4, kind: 'unparsable-line' })]);
  });

  it('reports a torn last line and a missing trailing newline separately', () => {
    const torn = loaded(fromText(`${base().text()}{"type":"message","id":"ab`));
    expect(kinds(torn)).toEqual(['torn-last-line']);
    const unterminated = loaded(fromText(base().text(false)));
    expect(kinds(unterminated)).toEqual(['no-trailing-newline']);
    expect(unterminated.entries).toHaveLength(2);
    expect(unterminated.endsWithNewline).toBe(false);
  });

  it('recovers glued }{ lines written by old pi', () => {
    const b = base();
    const [l1, l2] = [b.lines[1]!, b.lines[2]!];
    const s = loaded(fromText(`${b.lines[0]}\n${l1}${l2}\n`));
    expect(s.entries.map((e) => e.id)).toEqual([JSON.parse(l1).id, JSON.parse(l2).id]);
    expect(kinds(s)).toEqual(['glued-line']);
  });

  it('does not split a }{ that sits inside a string', () => {
    const b = new SessionBuilder();
    b.user('a string with }{ inside');
    const s = loaded(fromText(b.text()));
    expect(s.problems).toEqual([]);
    expect(s.entries).toHaveLength(1);
  });

  it('reads past a UTF-8 BOM but reports that pi refuses the file', () => {
    const s = loaded(fromText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(base().text())])));
    expect(kinds(s)).toContain('bom');
    expect(s.entries).toHaveLength(2);
  });

  it('tolerates junk before the header', () => {
    const s = loaded(fromText(`garbage\n\n${base().text()}`));
    expect(kinds(s)).toEqual(['junk-before-header']);
    expect(s.header.id).toBe('019b0000-0000-7000-8000-000000000001');
  });

  it('decodes invalid UTF-8 as U+FFFD like pi, and says so', () => {
    const b = new SessionBuilder();
    b.user('caf__');
    const bytes = Buffer.from(b.text());
    const at = bytes.indexOf('__');
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfe;
    const s = loaded(fromText(bytes));
    expect(kinds(s)).toEqual(['invalid-utf8']);
    expect(JSON.stringify(s.entries[0])).toContain('caf\uFFFD\uFFFD');
  });

  it('refuses files that are not sessions with a reason, not a throw', () => {
    expect(fromText('')).toMatchObject({ ok: false, reason: 'empty' });
    expect(fromText('not json\nstill not\n')).toMatchObject({ ok: false, reason: 'no-header' });
    expect(fromText('{"type":"message","id":"a","parentId":null}\n')).toMatchObject({ ok: false, reason: 'no-header' });
    expect(fromText('{"type":"session","id":42}\n')).toMatchObject({ ok: false, reason: 'no-header' });
    expect(fromText('\u0000\u0001\u0002binary\u00ff')).toMatchObject({ ok: false });
  });

  it('flags lines that are JSON but not entries, ids of the wrong type and bad parents', () => {
    const b = base();
    b.raw('42').raw('null').raw('"text"').raw('[1,2]');
    b.raw(
      '{"type":"message","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"x"}}',
    );
    b.raw('{"type":"label","id":"cafe0001","parentId":7,"timestamp":"2026-01-01T00:00:00.000Z","targetId":"x"}');
    const s = loaded(fromText(b.text()));
    expect(kinds(s)).toEqual([
      'not-an-object',
      'not-an-object',
      'not-an-object',
      'not-an-object',
      'missing-id',
      'bad-parent',
    ]);
    expect(s.entries.at(-1)).toMatchObject({ id: 'cafe0001', parentId: null });
  });

  it('reports message entries without a message, and content null, yet builds context like pi', () => {
    const b = base();
    b.entry('message', {});
    b.entry('message', { message: { role: 'user', content: null, timestamp: 1 } });
    const s = loaded(fromText(b.text()));
    expect(kinds(s)).toEqual(['bad-message']);
    const context = buildContext(buildTree(s));
    expect(context.messages.at(-1)).toEqual({ role: 'user', content: [], timestamp: 1 });
  });

  it('ignores a second header like pi, and reports it', () => {
    const b = base();
    b.raw(JSON.stringify({ type: 'session', version: 3, id: 'dup', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/x' }));
    b.assistant('more');
    const s = loaded(fromText(b.text()));
    expect(kinds(s)).toEqual(['duplicate-header']);
    expect(s.entries).toHaveLength(3);
  });

  it('reads the generated broken corpus without throwing, and never writes', async () => {
    const root = join(FIXTURES, 'generated', 'sessions');
    let count = 0;
    for (const folder of readdirSync(root)) {
      for (const name of readdirSync(join(root, folder))) {
        const path = join(root, folder, name);
        const before = readFileSync(path);
        const mtime = statSync(path).mtimeMs;
        const sync = readSessionSync(path);
        const async = await readSession(path);
        const summary = summarizeFileSync(path);
        expect(async.ok).toBe(sync.ok);
        expect('ok' in summary).toBe(!sync.ok);
        if (sync.ok) buildContext(buildTree(sync));
        expect(readFileSync(path).equals(before)).toBe(true);
        expect(statSync(path).mtimeMs).toBe(mtime);
        count++;
      }
    }
    expect(count).toBeGreaterThan(20);
  });

  it('gives file-level reasons for missing files and directories', async () => {
    const dir = tempDir();
    expect(readSessionSync(join(dir, 'nope.jsonl'))).toMatchObject({ ok: false, reason: 'not-found' });
    expect(readSessionSync(dir)).toMatchObject({ ok: false });
    expect(await readSession(dir)).toMatchObject({ ok: false });
    expect(summarizeFileSync(dir)).toMatchObject({ ok: false });
  });
});

describe('tree safety', () => {
  it('treats self-parents as roots and breaks longer cycles, including one through the leaf', () => {
    const b = new SessionBuilder();
    const a = b.user('a');
    b.assistant('b');
    // self-parent
    b.raw(
      JSON.stringify({
        type: 'message',
        id: 'self0001',
        parentId: 'self0001',
        timestamp: '2026-01-05T10:00:00.000Z',
        message: { role: 'user', content: 's' },
      }),
    );
    // 3-cycle whose last member is the last line (the leaf)
    b.raw(
      JSON.stringify({
        type: 'label',
        id: 'cyc00001',
        parentId: 'cyc00003',
        timestamp: '2026-01-05T10:00:01.000Z',
        targetId: a,
      }),
    );
    b.raw(
      JSON.stringify({
        type: 'label',
        id: 'cyc00002',
        parentId: 'cyc00001',
        timestamp: '2026-01-05T10:00:02.000Z',
        targetId: a,
      }),
    );
    b.raw(
      JSON.stringify({
        type: 'message',
        id: 'cyc00003',
        parentId: 'cyc00002',
        timestamp: '2026-01-05T10:00:03.000Z',
        message: { role: 'user', content: 'c' },
      }),
    );
    const s = loaded(fromText(b.text()));
    const tree = buildTree(s);
    expect(tree.roots.map((r) => r.id)).toEqual([a, 'self0001', 'cyc00001']);
    expect(tree.problems.map((p) => p.kind)).toEqual(['cycle']);
    expect(tree.leafId).toBe('cyc00003');
    expect(getBranch(tree, 'cyc00003').map((e) => e.id)).toEqual(['cyc00001', 'cyc00002', 'cyc00003']);
    expect(getBranch(tree, 'self0001').map((e) => e.id)).toEqual(['self0001']);
    const context = buildContext(tree);
    expect(context.sources).toEqual([{ entryId: 'cyc00003' }]);
  });

  it('shows orphans as extra roots and dedupes ids (last wins)', () => {
    const b = new SessionBuilder();
    const first = b.user('first');
    b.assistant('reply');
    const dup = b.lines[2]!;
    b.raw(dup);
    b.branchFrom('missing0');
    b.user('orphan');
    const tree = buildTree(loaded(fromText(b.text())));
    expect(tree.roots.map((r) => r.id)).toEqual([first, b.leaf]);
    expect(tree.children.get(first)).toHaveLength(1);
    expect(tree.problems.map((p) => p.kind).sort()).toEqual(['duplicate-id', 'orphan']);
  });

  it('handles a 1,000,000-entry chain without recursion', () => {
    const n = 1_000_000;
    const parts: string[] = [
      '{"type":"session","version":3,"id":"big","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}',
    ];
    for (let i = 0; i < n; i++) {
      parts.push(
        `{"type":"custom","id":"${i.toString(16).padStart(8, '0')}","parentId":${i === 0 ? 'null' : `"${(i - 1).toString(16).padStart(8, '0')}"`},"timestamp":"2026-01-01T00:00:00.000Z","customType":"x"}`,
      );
    }
    const dir = tempDir();
    const path = join(dir, 'chain.jsonl');
    writeFileSync(path, `${parts.join('\n')}\n`);
    const s = loaded(readSessionSync(path));
    const tree = buildTree(s);
    expect(getBranch(tree, tree.leafId)).toHaveLength(n);
    expect(buildContext(tree).contextEntries).toHaveLength(n);
    // Writing and reading a million entries takes 5-20 s on a busy two-core machine: the limit is for
    // a hang, not a speed target (npm run bench measures speed).
  }, 120_000);
});

describe('version 1 and 2 files', () => {
  it('migrates v1 in memory with stable ids and a linear chain, mapping firstKeptEntryIndex', () => {
    const text = [
      '{"type":"session","id":"v1-session","timestamp":"2025-10-01T00:00:00.000Z","cwd":"/old","provider":"anthropic"}',
      '{"type":"message","timestamp":"2025-10-01T00:00:01.000Z","message":{"role":"user","content":"one"}}',
      '{"type":"message","timestamp":"2025-10-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}]}}',
      'torn garbage',
      '{"type":"compaction","timestamp":"2025-10-01T00:00:03.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}',
      '',
    ].join('\n');
    const a = loaded(fromText(text));
    const b = loaded(fromText(text));
    expect(a.entries.map((e) => e.id)).toEqual(b.entries.map((e) => e.id));
    expect(a.entries.map((e) => e.parentId)).toEqual([null, a.entries[0]!.id, a.entries[1]!.id]);
    expect(a.entries[2]!['firstKeptEntryId']).toBe(a.entries[1]!.id);
    expect(a.entries[2]!['firstKeptEntryIndex']).toBeUndefined();
    expect(a.header.version).toBe(3);
    expect(a.diskVersion).toBe(1);
    expect(a.header['provider']).toBe('anthropic');
  });

  it('renames hookMessage to custom for v2', () => {
    const b = new SessionBuilder({ version: 2 });
    b.entry('message', {
      message: { role: 'hookMessage', customType: 'x', content: 'hi', display: true, timestamp: 1 },
    });
    const s = loaded(fromText(b.text()));
    expect((s.entries[0]!['message'] as { role: string }).role).toBe('custom');
  });
});
