/** The journal of our changes: the pure part (records, latest state per path, trimming) and the file (modes, bound, warnings). */
import { appendFileSync, chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchInPlace,
  forkSession,
  isAsWeLeftIt,
  JOURNAL_KEEP_BYTES,
  JOURNAL_MAX_BYTES,
  JOURNAL_READ_MAX_BYTES,
  type JournalRecord,
  journalLine,
  latestOwnStates,
  parseJournal,
  readJournal,
  readJournalChecked,
  recordChange,
  renameSession,
  setLabel,
  trashSessions,
} from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

// tempDir() folders are removed after the file by test/setup.ts.
const dir = (): string => tempDir();

const state = (size: number, mtimeMs = 1000): { size: number; mtimeMs: number; ino: number } => ({
  size,
  mtimeMs,
  ino: 7,
});
const rename = (path: string, size: number, time = '2026-01-01T00:00:00.000Z'): JournalRecord => ({
  kind: 'rename',
  path,
  time,
  after: state(size),
  entryId: 'e1',
  previousName: null,
});

describe('journal records (pure)', () => {
  it('round-trips every kind, one line each, skipping torn, foreign and newer-format lines', () => {
    const records: JournalRecord[] = [
      rename('/s/a.jsonl', 10),
      {
        kind: 'label',
        path: '/s/a.jsonl',
        time: 't',
        after: state(20),
        entryId: 'e2',
        targetId: 'x',
        previousLabel: 'old\nlabel',
      },
      { kind: 'branch', path: '/s/a.jsonl', time: 't', after: state(30), entryId: 'e3', previousLeafId: null },
      { kind: 'fork', path: '/s/f.jsonl', time: 't', after: state(40), source: '/s/a.jsonl' },
      {
        kind: 'delete',
        path: '/s/b.jsonl',
        time: 't',
        how: 'trash',
        trashedPath: '/t/b.jsonl',
        infoPath: '/t/b.trashinfo',
      },
    ];
    const text = records.map(journalLine).join('');
    expect(text.split('\n')).toHaveLength(records.length + 1);
    const noise = [
      '{"v":2,"kind":"rename","path":"/s/a.jsonl","time":"t","after":{"size":1,"mtimeMs":1,"ino":1}}',
      '{"v":1,"kind":"rename","path":"/s/a',
      'not json',
      '{"v":1,"kind":"rename","path":"/s/a.jsonl","time":"t"}',
    ];
    expect(parseJournal(`${noise[0]}\n${text}${noise.slice(1).join('\n')}`)).toEqual(records);
  });

  it('latest state per path: the last write wins, a delete forgets the path, a fork is its new file', () => {
    const states = latestOwnStates([
      rename('/s/a.jsonl', 10),
      rename('/s/a.jsonl', 25),
      rename('/s/b.jsonl', 5),
      { kind: 'delete', path: '/s/b.jsonl', time: 't', how: 'deleted', trashedPath: null, infoPath: null },
      { kind: 'fork', path: '/s/f.jsonl', time: 't', after: state(40), source: '/s/a.jsonl' },
    ]);
    expect([...states.keys()].sort()).toEqual(['/s/a.jsonl', '/s/f.jsonl']);
    expect(states.get('/s/a.jsonl')?.size).toBe(25);
  });

  it('a write through a symlink counts for the link too (the picker lists the path it found)', () => {
    const states = latestOwnStates([{ ...rename('/real/a.jsonl', 10), alias: '/link/a.jsonl' }]);
    expect(states.get('/link/a.jsonl')).toEqual(states.get('/real/a.jsonl'));
    expect(
      latestOwnStates([
        { ...rename('/real/a.jsonl', 10), alias: '/link/a.jsonl' },
        { kind: 'delete', path: '/link/a.jsonl', time: 't', how: 'deleted', trashedPath: null, infoPath: null },
      ]).has('/link/a.jsonl'),
    ).toBe(false);
  });

  it('as we left it only when size and mtime are both exactly ours', () => {
    expect(isAsWeLeftIt(state(10, 1000.5), { size: 10, mtimeMs: 1000.5 })).toBe(true);
    expect(isAsWeLeftIt(state(10, 1000.5), { size: 11, mtimeMs: 1000.5 })).toBe(false); // pi appended
    expect(isAsWeLeftIt(state(10, 1000.5), { size: 10, mtimeMs: 2000 })).toBe(false); // rewritten, same size
    expect(isAsWeLeftIt(undefined, { size: 10, mtimeMs: 1000.5 })).toBe(false);
  });
});

describe('journal file', () => {
  function session(): { path: string; user: string; assistant: string } {
    const b = new SessionBuilder();
    const user = b.user('question');
    const assistant = b.assistant('answer');
    b.entry('session_info', { name: 'First name' });
    return { path: b.writeTo(join(dir(), 'sessions', 's.jsonl')), user, assistant };
  }

  it('records each kind with what undo needs and the state our write left, in a 0700 folder and a 0600 file', async () => {
    const env = { XDG_STATE_HOME: join(dir(), 'state') };
    const saved = process.env['XDG_STATE_HOME'];
    process.env['XDG_STATE_HOME'] = env.XDG_STATE_HOME;
    const { path, user, assistant } = session();
    let second: string;
    let branched: Awaited<ReturnType<typeof branchInPlace>>;
    let renamed: Awaited<ReturnType<typeof renameSession>>;
    let fork: Awaited<ReturnType<typeof forkSession>>;
    try {
      renamed = await renameSession(path, 'Second name');
      await setLabel(path, assistant, 'first');
      second = (await setLabel(path, assistant, 'second')).entryId;
      branched = await branchInPlace(path, assistant);
      fork = await forkSession(path, user, { position: 'at' });
      const trashed = await trashSessions([fork.path], { permanent: true });
      expect([renamed.journalWarning, branched.journalWarning, fork.journalWarning, trashed.journalWarning]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    } finally {
      process.env['XDG_STATE_HOME'] = saved;
    }

    const records = await readJournal(env);
    expect(records.map((r) => r.kind)).toEqual(['rename', 'label', 'label', 'branch', 'fork', 'delete']);
    expect(records[0]).toMatchObject({ path, entryId: renamed.entryId, previousName: 'First name' });
    expect(records[1]).toMatchObject({ targetId: assistant, previousLabel: null });
    expect(records[2]).toMatchObject({ targetId: assistant, previousLabel: 'first' });
    // The leaf before the branch was our second label entry, what pi would have resumed from.
    expect(records[3]).toMatchObject({ entryId: branched.entryId, previousLeafId: second });
    expect((await openWithPi(path)).manager.getLeafId()).toBe(branched.entryId);
    expect(records[4]).toMatchObject({ kind: 'fork', path: fork.path, source: path });
    expect(records[5]).toMatchObject({ kind: 'delete', path: fork.path, how: 'deleted' });
    const now = statSync(path);
    expect(records[3]).toMatchObject({ after: { size: now.size, mtimeMs: now.mtimeMs, ino: now.ino } });
    expect(statSync(join(env.XDG_STATE_HOME, 'pi-sessions')).mode & 0o777).toBe(0o700);
    expect(statSync(join(env.XDG_STATE_HOME, 'pi-sessions', 'journal.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('a rename through a symlink records the real file and the link', async () => {
    const saved = process.env['XDG_STATE_HOME'];
    process.env['XDG_STATE_HOME'] = join(dir(), 'state');
    try {
      const { path } = session();
      const link = join(dir(), 'link.jsonl');
      symlinkSync(path, link);
      await renameSession(link, 'via the link');
      expect((await readJournal()).at(-1)).toMatchObject({ kind: 'rename', path, alias: link });
    } finally {
      process.env['XDG_STATE_HOME'] = saved;
    }
  });

  it('tightens a folder and a file that were readable by others', async () => {
    const env = { XDG_STATE_HOME: join(dir(), 'state') };
    mkdirSync(join(env.XDG_STATE_HOME, 'pi-sessions'), { recursive: true, mode: 0o755 });
    chmodSync(join(env.XDG_STATE_HOME, 'pi-sessions'), 0o755);
    writeFileSync(join(env.XDG_STATE_HOME, 'pi-sessions', 'journal.jsonl'), '', { mode: 0o644 });
    expect((await recordChange(rename('/s/a.jsonl', 1), env)).warning).toBeUndefined();
    expect(statSync(join(env.XDG_STATE_HOME, 'pi-sessions')).mode & 0o777).toBe(0o700);
    expect(statSync(join(env.XDG_STATE_HOME, 'pi-sessions', 'journal.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('stays bounded: past the limit it keeps its newest half (after a trim marker), then appends', async () => {
    const env = { XDG_STATE_HOME: join(dir(), 'state') };
    expect((await recordChange(rename('/s/first.jsonl', 1), env)).warning).toBeUndefined();
    const file = join(env.XDG_STATE_HOME, 'pi-sessions', 'journal.jsonl');
    const line = journalLine(rename('/s/filler.jsonl', 2));
    appendFileSync(file, line.repeat(Math.ceil(JOURNAL_MAX_BYTES / line.length)));
    expect((await recordChange(rename('/s/last.jsonl', 3), env)).warning).toBeUndefined();
    const size = statSync(file).size;
    expect(size).toBeLessThanOrEqual(JOURNAL_KEEP_BYTES + 2 * line.length + 200);
    const records = parseJournal(readFileSync(file, 'utf8'));
    expect(records[0]?.kind).toBe('trimmed');
    expect(records.at(-1)?.path).toBe('/s/last.jsonl');
    expect(records.some((r) => r.path === '/s/first.jsonl')).toBe(false);
  });

  it('a journal that cannot be written is a warning: the change is made all the same', async () => {
    const blocked = join(dir(), 'state');
    writeFileSync(blocked, 'a file where the folder should be');
    const saved = process.env['XDG_STATE_HOME'];
    process.env['XDG_STATE_HOME'] = blocked;
    try {
      const { path } = session();
      const renamed = await renameSession(path, 'Renamed anyway');
      expect(renamed.journalWarning).toMatch(
        /^the change was made but not recorded in the journal \(.*\), so it cannot be undone/,
      );
      expect(renamed.journalWarning).not.toContain('\n');
      expect((await openWithPi(path)).manager.getSessionName()).toBe('Renamed anyway');
    } finally {
      process.env['XDG_STATE_HOME'] = saved;
    }
  });
});

describe('reading the journal says when it cannot be read whole', () => {
  it('none yet: no records, no warning; a folder in its place: a one-line warning', async () => {
    const env = { XDG_STATE_HOME: dir() };
    expect(await readJournalChecked(env)).toEqual({ records: [] });
    mkdirSync(join(env.XDG_STATE_HOME, 'pi-sessions', 'journal.jsonl'), { recursive: true });
    const read = await readJournalChecked(env);
    expect(read.records).toEqual([]);
    expect(read.warning).toMatch(/^the journal .*journal\.jsonl cannot be read \([^\n]*\): nothing can be undone$/);
  });

  it('one grown past what pi-sessions writes: only its newest changes are read, and it says so', async () => {
    const env = { XDG_STATE_HOME: dir() };
    const folder = join(env.XDG_STATE_HOME, 'pi-sessions');
    mkdirSync(folder, { recursive: true });
    const line = journalLine({ ...rename('/s/old.jsonl', 1), id: '00000000' });
    const lines = Math.ceil((JOURNAL_READ_MAX_BYTES + 1) / line.length);
    writeFileSync(
      join(folder, 'journal.jsonl'),
      line.repeat(lines) + journalLine({ ...rename('/s/newest.jsonl', 2), id: '11111111' }),
    );
    const read = await readJournalChecked(env);
    expect(read.warning).toMatch(
      /^the journal .* is [0-9]+ MiB, larger than pi-sessions lets it grow: only its newest changes were read$/,
    );
    expect(read.records.at(-1)).toMatchObject({ path: '/s/newest.jsonl' });
    expect(read.records.length).toBeLessThan(lines);
    expect(read.records.length).toBeGreaterThan(0);
  });
});
