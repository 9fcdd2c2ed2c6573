/**
 * The store audit on both corpora and the hostile corpus. The expected problems come from what pi
 * recorded (the goldens' `error` and `change`), the generator's manifest (the kind of damage each
 * broken file has) and pi 1.6.0 itself (a file its listing hides must have an error), so the audit
 * is not checked against its own idea of a problem. Every clean file must give no problem at all.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CheckEnvironment, type CheckKind, checkFile, checkStore, type FileCheck } from '../../src/store/index.js';
import { resolveLocations } from '../../src/store/locations.js';
import { type Corpus, FIXTURES, goldenCases, sessionsRoot } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { piModule } from '../helpers/pi.js';
import { smallCases } from '../hostile/corpus.js';

/** Where the corpus was written: forks name their parents under this root. */
const WRITER_ROOT = '/home/dev/.pi/agent/sessions';

/**
 * The machine that wrote a corpus: every project folder named by a header existed, and the
 * sessions root was at WRITER_ROOT. Anything else is looked up for real.
 */
function writerMachine(corpus: Corpus): CheckEnvironment {
  const cwds = new Set(
    goldenCases()
      .filter((c) => c.corpus === corpus && typeof c.golden.cwd === 'string')
      .map((c) => c.golden.cwd!),
  );
  const root = sessionsRoot(corpus);
  return {
    exists: (path) =>
      cwds.has(path) ||
      (path.startsWith(`${WRITER_ROOT}/`) && checkExists(join(root, path.slice(WRITER_ROOT.length + 1)))),
  };
}

function checkExists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

const kinds = (check: FileCheck): CheckKind[] => [...new Set(check.problems.map((p) => p.kind))].sort();

/** The generator's damage kinds → what the audit must say (and nothing else). */
const GENERATED_EXPECTED: Record<string, CheckKind[]> = {
  v3: [],
  'legacy-v1': ['legacy-version'],
  'legacy-v2': ['legacy-version'],
  'broken:truncated-last-line': ['torn-last-line'],
  'broken:garbage-line': ['unparsable-line'],
  'broken:empty-file': ['empty'],
  'broken:no-header': ['not-a-session'],
  'broken:non-utf8': ['invalid-utf8'],
  'broken:crlf': [],
  'broken:blank-lines': [],
  'broken:bom': ['bom'],
  'broken:header-only': [],
  'broken:orphan-parent': ['orphan'],
  'broken:duplicated-line': ['duplicate-id'],
  'broken:bad-header-json': ['not-a-session'],
  'broken:no-trailing-newline': ['no-trailing-newline'],
};

describe('check on the pi-written and generated corpora', () => {
  for (const corpus of ['pi-written', 'generated'] as const) {
    it(`${corpus}: every problem pi recorded is found, and the clean files give none`, () => {
      const report = checkStore(
        resolveLocations({ env: { PI_CODING_AGENT_DIR: join(FIXTURES, corpus) }, cwd: '/' }),
        'all',
        writerMachine(corpus),
      );
      const byPath = new Map(report.files.map((f) => [f.path, f]));
      const cases = goldenCases().filter((c) => c.corpus === corpus);
      expect(report.files.length).toBe(cases.length);
      for (const c of cases) {
        const check = byPath.get(c.sessionPath)!;
        const what = `${c.folder}/${c.file}`;
        const severities = check.problems.map((p) => p.severity);
        // What pi itself recorded.
        if (c.golden.error !== null) expect(severities, `${what}: pi refuses it`).toContain('error');
        if (c.golden.change === 'rewritten')
          expect(
            kinds(check).some((k) => k === 'legacy-version' || k === 'empty'),
            `${what}: pi rewrites it`,
          ).toBe(true);
        if (c.golden.change === 'appended-newline')
          expect(
            kinds(check).some((k) => k === 'no-trailing-newline' || k === 'torn-last-line'),
            `${what}: pi appends a newline`,
          ).toBe(true);
        if (c.golden.error === null && c.golden.change === null && corpus === 'pi-written')
          expect(check.problems, `${what}: clean`).toEqual([]);
        for (const p of check.problems) {
          expect(p.path).toBe(c.sessionPath);
          expect(p.line, what).toBeGreaterThanOrEqual(0);
          expect(
            p.pi.length * p.fix.length * p.message.length,
            `${what}: ${p.kind} says what pi does and what to do`,
          ).toBeGreaterThan(0);
        }
      }
      if (corpus === 'generated') {
        const manifest = JSON.parse(readFileSync(join(FIXTURES, 'generated', 'manifest.json'), 'utf8')) as {
          files: { path: string; kind: string }[];
        };
        for (const file of manifest.files.filter((f) => f.kind !== 'clutter')) {
          const check = byPath.get(join(sessionsRoot('generated'), file.path))!;
          expect(kinds(check), `${file.kind}: ${file.path}`).toEqual(GENERATED_EXPECTED[file.kind]);
        }
      }
    });
  }

  it('health: sizes, compactions and tool output of the pi-written corpus', () => {
    const report = checkStore(
      resolveLocations({ env: { PI_CODING_AGENT_DIR: join(FIXTURES, 'pi-written') }, cwd: '/' }),
      'all',
      writerMachine('pi-written'),
    );
    for (const file of report.files) {
      const h = file.health!;
      const bytes = readFileSync(file.path);
      expect(h.size).toBe(bytes.length);
      const lines = bytes.toString('utf8').split('\n');
      expect(h.compactions, file.path).toBe(lines.filter((l) => l.startsWith('{"type":"compaction"')).length);
      const toolBytes = lines
        .filter((l) => /"message":\{"role":"toolResult"/.test(l))
        .reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
      expect(h.toolOutputBytes, file.path).toBe(toolBytes);
      const largest = Math.max(...lines.slice(1).map((l) => Buffer.byteLength(l) + 1));
      expect(h.largestEntries[0]!.bytes, file.path).toBe(largest);
      expect(h.largestEntries.map((e) => e.bytes)).toEqual(
        [...h.largestEntries.map((e) => e.bytes)].sort((a, b) => b - a),
      );
    }
    expect(report.files.some((f) => f.health!.compactions > 0)).toBe(true);
  });
});

/** The hostile cases → what the audit must say besides the missing cwd (every readable one names /home/test/hostile). */
const HOSTILE_EXPECTED: Record<string, CheckKind[]> = {
  empty: ['empty'],
  'header-only': [],
  'no-header': ['not-a-session'],
  'header-not-first': ['not-a-session'],
  bom: ['bom'],
  crlf: [],
  'binary-garbage': ['not-a-session'],
  'binary-after-header': ['invalid-utf8', 'torn-last-line', 'unparsable-line'],
  'invalid-utf8': ['invalid-utf8'],
  'truncated-last-line': ['torn-last-line'],
  'glued-lines': ['glued-line'],
  'cycle-self': ['cycle'],
  'cycle-two': ['cycle'],
  'cycle-long-through-leaf': ['cycle'],
  'duplicate-ids': ['duplicate-id'],
  orphans: ['orphan'],
  'unknown-types': [],
  'message-without-message': ['bad-message'],
  'content-null': ['hidden-by-pi'],
  'header-with-numbers': ['not-a-session'],
  'numbers-for-strings': ['bad-parent', 'hidden-by-pi', 'impossible-value', 'missing-id'],
  'not-json-at-all': ['not-a-session'],
  'json-but-not-objects': ['not-a-session'],
};

describe('check on the hostile corpus', () => {
  let dir: string;
  const files: Record<string, string> = {};
  beforeAll(() => {
    dir = tempDir('pi-sessions-check-');
    for (const [name, bytes] of Object.entries(smallCases())) {
      files[name] = join(dir, `2026-01-05T09-00-00-000Z_${name}.jsonl`);
      writeFileSync(files[name], bytes);
    }
  });

  it('finds every problem of every case, and nothing on the clean ones', () => {
    expect(Object.keys(files).sort()).toEqual(Object.keys(HOSTILE_EXPECTED).sort());
    for (const [name, path] of Object.entries(files)) {
      const check = checkFile(path, { exists: () => true });
      expect(kinds(check), name).toEqual(HOSTILE_EXPECTED[name]);
      // On this machine the cwd is really missing, and that is said too.
      const real = checkFile(path);
      if (real.health) expect(kinds(real), name).toEqual([...HOSTILE_EXPECTED[name]!, 'cwd-missing'].sort());
    }
  });

  it('every session pi 1.6.0 hides from its listing or refuses to open has an error', async () => {
    const { SessionManager } = (await piModule()) as unknown as {
      SessionManager: { listAll(dir: string): Promise<{ path: string }[]> };
    };
    const listed = new Set((await SessionManager.listAll(dir)).map((s) => s.path));
    for (const [name, path] of Object.entries(files)) {
      const errors = checkFile(path, { exists: () => true }).problems.filter((p) => p.severity === 'error');
      if (!listed.has(path)) expect(errors.length, `${name}: pi hides it`).toBeGreaterThan(0);
      if (HOSTILE_EXPECTED[name]!.length === 0) expect(listed.has(path), `${name}: clean, and pi lists it`).toBe(true);
    }
  });
});

describe('check and retainedTail', () => {
  const dir = join(FIXTURES, 'retained');
  const lineOf = (path: string, id: string): number =>
    readFileSync(path, 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(`"id":"${id}"`) && line.includes('"retainedTail"')) + 1;
  const compactionsWithTail = (path: string): { id: string; size: number }[] =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"retainedTail"'))
      .map((line) => JSON.parse(line) as { id: string; retainedTail: unknown[] })
      .map((entry) => ({ id: entry.id, size: entry.retainedTail.length }));

  it.each([
    'no-first-kept.jsonl',
    'with-first-kept.jsonl',
    'nested.jsonl',
    'nested-kept-range.jsonl',
    'empty-tail.jsonl',
  ])('%s: a warning on each compaction whose tail pi 1.6.0 ignores, nothing else', (name) => {
    const path = join(dir, name);
    const expected = compactionsWithTail(path);
    expect(expected.length).toBeGreaterThan(0);
    const { problems } = checkFile(path, { exists: () => true });
    expect(problems.filter((p) => p.kind !== 'retained-tail' && p.kind !== 'cwd-missing')).toEqual([]);
    const tails = problems.filter((p) => p.kind === 'retained-tail');
    expect(tails.map((p) => [p.line, p.severity])).toEqual(expected.map((c) => [lineOf(path, c.id), 'warning']));
    for (const [i, c] of expected.entries()) {
      expect(tails[i]!.message).toContain(`compaction ${c.id}`);
      expect(tails[i]!.message).toContain(c.size > 0 ? `keeps ${c.size} message` : 'empty retainedTail');
      expect(tails[i]!.pi).toContain('firstKeptEntryId');
    }
  });
});
