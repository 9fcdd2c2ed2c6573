/** `pi-sessions labels`: every label of the corpus, exactly pi's resolved labels (the goldens). */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabelRow } from '../../src/cli/labels.js';
import { readSessionSync } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { CORPORA, type Corpus, FIXTURES, goldenCases, sessionsRoot } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';

function corpusCopy(corpus: Corpus): { agent: string; root: string } {
  const agent = tempDir();
  cpSync(join(FIXTURES, corpus, 'sessions'), join(agent, 'sessions'), { recursive: true });
  return { agent, root: join(agent, 'sessions') };
}

type Resolved = { labels: Record<string, string>; labelTimestamps: Record<string, string> };

/** pi's resolved labels per session file (relative path), in our ids (v1 files are migrated by position). */
function goldenLabels(corpus: Corpus): Map<string, Resolved> {
  const expected = new Map<string, Resolved>();
  for (const c of goldenCases().filter((x) => x.corpus === corpus && !x.golden.error && !x.golden.generatedHeader)) {
    if (Object.keys(c.golden.labels).length === 0) continue;
    const ours = readSessionSync(c.sessionPath);
    if (!ours.ok) throw new Error(`${c.sessionPath}: ${ours.message}`);
    const idMap = new Map(c.golden.entries.map((e, i) => [e.id, ours.entries[i]!.id]));
    const mapKeys = (record: Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(record).map(([id, v]) => [idMap.get(id) ?? id, v]));
    expected.set(relative(sessionsRoot(corpus), c.sessionPath), {
      labels: mapKeys(c.golden.labels),
      labelTimestamps: mapKeys(c.golden.labelTimestamps),
    });
  }
  return expected;
}

describe('pi-sessions labels', () => {
  for (const corpus of CORPORA) {
    it(`--all --json lists exactly pi's resolved labels of the ${corpus} corpus`, () => {
      const { agent, root } = corpusCopy(corpus);
      const run = runCli(['labels', '--all', '--json'], {
        env: { PI_CODING_AGENT_DIR: agent, XDG_CACHE_HOME: tempDir() },
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const rows = (JSON.parse(run.stdout) as { labels: LabelRow[] }).labels;
      const got = new Map<string, Resolved>();
      for (const row of rows) {
        const key = relative(root, row.session.path);
        const resolved = got.get(key) ?? { labels: {}, labelTimestamps: {} };
        expect(resolved.labels[row.entryId], `${key} ${row.entryId} twice`).toBeUndefined();
        resolved.labels[row.entryId] = row.label;
        resolved.labelTimestamps[row.entryId] = row.time ?? '';
        got.set(key, resolved);
      }
      const expected = goldenLabels(corpus);
      expect(expected.size).toBeGreaterThan(0);
      expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));
      // Newest first.
      const times = rows.flatMap((r) => (r.time === null ? [] : [Date.parse(r.time)]));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const row of rows) expect(row.session.id).toMatch(/\S/);
    });
  }

  it('shows one sanitised line per label in the table, with the entry text and session', () => {
    const agent = tempDir();
    const dir = join(agent, 'sessions', '--home-dev-x--');
    mkdirSync(dir, { recursive: true });
    const lines = [
      { type: 'session', version: 3, id: 'aaaaaaaa-1111', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/home/dev/x' },
      {
        type: 'message',
        id: 'm1',
        parentId: null,
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { role: 'user', content: 'fix the\nbug \u001b[31mnow\u001b[0m', timestamp: 1 },
      },
      {
        type: 'label',
        id: 'l1',
        parentId: 'm1',
        timestamp: '2026-01-01T00:00:02.000Z',
        targetId: 'm1',
        label: 'replaced',
      },
      {
        type: 'label',
        id: 'l2',
        parentId: 'l1',
        timestamp: '2026-01-01T00:00:03.000Z',
        targetId: 'm1',
        label: 'odd\u001b]0;x\u0007 label',
      },
    ];
    writeFileSync(
      join(dir, '2026-01-01T00-00-00-000Z_aaaaaaaa-1111.jsonl'),
      `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    );
    const run = runCli(['labels', '--cwd', '/home/dev/x'], {
      env: { PI_CODING_AGENT_DIR: agent, XDG_CACHE_HOME: tempDir() },
    });
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout.trimEnd().split('\n');
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^TIME\s+LABEL\s+SESSION\s+TITLE\s+TEXT$/);
    expect(out[1]).toMatch(/odd.* label\s+aaaaaaaa\s+fix the bug .*now.*\s+fix the bug .*now/);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(run.stdout).not.toMatch(/replaced/);
    expect(out[2]).toBe(`1 label in 1 session in ${dir}`);
  });
});
