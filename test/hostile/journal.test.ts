/**
 * A hostile journal cannot steer undo: each record below is written by hand (as a crafted file, a
 * stale record or another tool would leave it) next to real files, real folders, real symlinks
 * and a real freedesktop trash, and `pi-sessions undo` runs as a user runs it (the built CLI, a
 * process of its own). Undo may only touch session files in the sessions folders and files in the
 * trash it uses, checked by real path, and only while they are what the record says: anything else
 * is refused with one line, exit 1, and every file is left exactly as it was.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { expectCleanRun, type Run, runCliAsync } from './run.js';

interface Store {
  root: string;
  home: string;
  sessionsRoot: string;
  projectDir: string;
  /** XDG_DATA_HOME: the trash is `<data>/Trash`. */
  data: string;
  trash: string;
  journal: string;
  env: Record<string, string>;
}

function store(): Store {
  const root = tempDir('pi-sessions-journal-');
  const home = join(root, 'home');
  const sessionsRoot = join(root, 'agent', 'sessions');
  const projectDir = join(sessionsRoot, '--home-u-proj--');
  const data = join(root, 'data');
  const state = join(root, 'state');
  for (const d of [home, projectDir, data, state]) mkdirSync(d, { recursive: true });
  return {
    root,
    home,
    sessionsRoot,
    projectDir,
    data,
    trash: join(data, 'Trash'),
    journal: join(state, 'pi-sessions', 'journal.jsonl'),
    env: { HOME: home, PI_CODING_AGENT_DIR: join(root, 'agent'), XDG_STATE_HOME: state, XDG_DATA_HOME: data },
  };
}

let ids = 0;
/** A real pi session file with its own session id. */
function session(path: string, text = 'a prompt'): { path: string; id: string } {
  ids++;
  const id = `019b0000-0000-7000-8000-${String(ids).padStart(12, '0')}`;
  const b = new SessionBuilder({ id });
  b.user(text);
  b.assistant('an answer');
  mkdirSync(join(path, '..'), { recursive: true });
  return { path: b.writeTo(path), id };
}

/** Writes the journal as a hand-made file: one record per line, format 1. */
function writeJournal(s: Store, records: Record<string, unknown>[]): void {
  mkdirSync(join(s.journal, '..'), { recursive: true, mode: 0o700 });
  const lines = records.map((r, i) =>
    JSON.stringify({ v: 1, time: new Date(Date.now() - 60_000 + i).toISOString(), id: `bad0000${i}`, ...r }),
  );
  writeFileSync(join(s.journal), `${lines.join('\n')}\n`, { mode: 0o600 });
}

function stateOf(path: string): { size: number; mtimeMs: number; ino: number } {
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

/** A file's bytes and inode, to show it was not touched. */
function fingerprint(path: string): { bytes: Buffer; ino: number } {
  return { bytes: readFileSync(path), ino: lstatSync(path).ino };
}

function cli(s: Store, ...args: string[]): Promise<Run> {
  return runCliAsync(args, { env: s.env, cwd: s.home });
}

/** The contract of a refused undo: exit 1, one line naming why, and (checked by the caller) nothing changed. */
async function refused(s: Store, why: RegExp, ...args: string[]): Promise<Run> {
  const journalBefore = readFileSync(s.journal);
  const run = await cli(s, 'undo', ...args);
  expectCleanRun(run, 'hostile undo');
  expect(run.code, run.stdout).toBe(1);
  expect(run.stderr).toMatch(/^pi-sessions: cannot undo [^\n]+\n$/);
  expect(run.stderr).toMatch(why);
  // Nothing recorded either: a refused undo is not an undo.
  expect(readFileSync(s.journal).equals(journalBefore)).toBe(true);
  return run;
}

describe('a hostile journal cannot steer undo', () => {
  it('a delete record whose trash path is an ordinary file: neither deleted nor moved (into the store or anywhere)', async () => {
    const s = store();
    const precious = join(s.home, 'notes.txt');
    writeFileSync(precious, 'my notes, not a session\n');
    const target = join(s.projectDir, 'restored.jsonl');
    const before = fingerprint(precious);
    writeJournal(s, [
      { kind: 'delete', path: target, how: 'trash', trashedPath: precious, infoPath: null, sessionId: 'x' },
    ]);
    await refused(s, /notes\.txt is not in the trash pi-sessions uses/);
    expect(fingerprint(precious)).toEqual(before);
    expect(existsSync(target)).toBe(false);
    // --force forces nothing here.
    await refused(s, /not in the trash/, '--force');
    expect(fingerprint(precious)).toEqual(before);
    // A session file posing as trashed, outside the trash, is refused the same way.
    const outside = session(join(s.home, 'sessions-backup', 'keep.jsonl'));
    const kept = fingerprint(outside.path);
    writeJournal(s, [
      { kind: 'delete', path: target, how: 'trash', trashedPath: outside.path, infoPath: null, sessionId: outside.id },
    ]);
    await refused(s, /keep\.jsonl is not in the trash pi-sessions uses/);
    expect(fingerprint(outside.path)).toEqual(kept);
    expect(existsSync(target)).toBe(false);
  });

  it('a fork record naming a file outside the store: not trashed', async () => {
    const s = store();
    const outside = session(join(s.home, 'work', 'notes.jsonl'));
    const before = fingerprint(outside.path);
    writeJournal(s, [
      { kind: 'fork', path: outside.path, after: stateOf(outside.path), source: outside.path, sessionId: outside.id },
    ]);
    const list = await cli(s, 'undo', '--list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/cannot be undone: [^\n]*notes\.jsonl is outside the sessions folders/);
    await refused(s, /notes\.jsonl is outside the sessions folders \([^)]*agent\/sessions\)/);
    expect(fingerprint(outside.path)).toEqual(before);
    expect(existsSync(s.trash)).toBe(false);
  });

  it('a delete record whose target is under ~/.config: nothing created there, the trash left as it is', async () => {
    const s = store();
    // A real trashed session, with the trash's own record saying it came from ~/.config.
    const target = join(s.home, '.config', 'autostart', 'evil.jsonl');
    const trashed = session(join(s.trash, 'files', 'evil.jsonl'));
    const info = join(s.trash, 'info', 'evil.jsonl.trashinfo');
    mkdirSync(join(info, '..'), { recursive: true });
    writeFileSync(info, `[Trash Info]\nPath=${encodeURI(target)}\nDeletionDate=2026-01-05T09:00:00\n`);
    const before = fingerprint(trashed.path);
    writeJournal(s, [
      { kind: 'delete', path: target, how: 'trash', trashedPath: trashed.path, infoPath: info, sessionId: trashed.id },
    ]);
    await refused(s, /evil\.jsonl is outside the sessions folders/);
    expect(existsSync(join(s.home, '.config'))).toBe(false);
    expect(fingerprint(trashed.path)).toEqual(before);
    expect(existsSync(info)).toBe(true);
    // Restoring into the store's root itself (not a project folder) is refused too.
    writeJournal(s, [
      {
        kind: 'delete',
        path: join(s.sessionsRoot, 'evil.jsonl'),
        how: 'trash',
        trashedPath: trashed.path,
        infoPath: null,
        sessionId: trashed.id,
      },
    ]);
    await refused(s, /outside the sessions folders/);
    expect(readdirSync(s.sessionsRoot)).toEqual(['--home-u-proj--']);
  });

  it('symlink tricks: a session link to outside the store, a project folder linked elsewhere, a link in the store for a real outside file', async () => {
    const s = store();
    const outside = session(join(s.home, 'elsewhere', 'real.jsonl'));
    const before = fingerprint(outside.path);
    // A link inside the store pointing out.
    const link = join(s.projectDir, 'link.jsonl');
    symlinkSync(outside.path, link);
    writeJournal(s, [{ kind: 'fork', path: link, after: stateOf(link), source: link, sessionId: outside.id }]);
    await refused(s, /link\.jsonl is a symbolic link/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fingerprint(outside.path)).toEqual(before);
    // A rename record on the real file (as if made through the link): it is outside, nothing is appended.
    writeJournal(s, [
      {
        kind: 'rename',
        path: outside.path,
        alias: link,
        after: stateOf(outside.path),
        entryId: '00000002',
        previousName: 'steered',
        sessionId: outside.id,
      },
    ]);
    await refused(s, /real\.jsonl is outside the sessions folders/, '--force');
    expect(fingerprint(outside.path)).toEqual(before);
    // A project folder that is a link to a folder outside the store.
    symlinkSync(join(s.home, 'elsewhere'), join(s.sessionsRoot, '--home-u-evil--'));
    const viaFolder = join(s.sessionsRoot, '--home-u-evil--', 'real.jsonl');
    writeJournal(s, [
      { kind: 'fork', path: viaFolder, after: stateOf(viaFolder), source: viaFolder, sessionId: outside.id },
    ]);
    await refused(s, /outside the sessions folders/);
    expect(fingerprint(outside.path)).toEqual(before);
  });

  it('a trash whose files folder is a link elsewhere: nothing is taken from it (and nothing is deleted into it)', async () => {
    const s = store();
    const elsewhere = join(s.home, 'precious');
    const kept = session(join(elsewhere, 'x.jsonl'));
    mkdirSync(join(s.trash, 'info'), { recursive: true });
    symlinkSync(elsewhere, join(s.trash, 'files'));
    const target = join(s.projectDir, 'x.jsonl');
    const info = join(s.trash, 'info', 'x.jsonl.trashinfo');
    writeFileSync(info, `[Trash Info]\nPath=${encodeURI(target)}\nDeletionDate=2026-01-05T09:00:00\n`);
    const before = fingerprint(kept.path);
    writeJournal(s, [
      {
        kind: 'delete',
        path: target,
        how: 'trash',
        trashedPath: join(s.trash, 'files', 'x.jsonl'),
        infoPath: info,
        trash: 'home',
        sessionId: kept.id,
      },
    ]);
    await refused(s, /files is a symbolic link/);
    expect(fingerprint(kept.path)).toEqual(before);
    expect(existsSync(target)).toBe(false);
    // Deleting into such a trash is refused too, in one line, and the session stays where it is.
    const victim = session(join(s.projectDir, 'victim.jsonl'));
    const del = await cli(s, 'delete', victim.path);
    expectCleanRun(del, 'delete into a linked trash');
    expect(del.code).toBe(1);
    expect(del.stderr).toMatch(/is a symbolic link \(pi-sessions does not use a trash that points elsewhere\)/);
    expect(existsSync(victim.path)).toBe(true);
    expect(readdirSync(elsewhere)).toEqual(['x.jsonl']);
  });

  it('a session replaced by another one with the same name: its rename is not undone into it, even with --force', async () => {
    const s = store();
    const file = session(join(s.projectDir, 'same.jsonl'));
    const renamed = await cli(s, 'rename', file.path, 'Ours');
    expect(renamed.code, renamed.stderr).toBe(0);
    // Another session takes the name (a new file moved over it, as a sync tool or a restore would).
    const other = session(join(s.root, 'incoming.jsonl'), 'another conversation');
    renameSync(other.path, file.path);
    const before = fingerprint(file.path);
    await refused(s, /same\.jsonl is another session now \(019b0000-0000-7000-8000-0*\d+, not /);
    await refused(s, /is another session now/, '--force');
    expect(fingerprint(file.path)).toEqual(before);
  });

  it('a session written over in place by another one (same inode): the header says so', async () => {
    const s = store();
    const file = session(join(s.projectDir, 'inplace.jsonl'));
    const renamed = await cli(s, 'rename', file.path, 'Ours');
    expect(renamed.code, renamed.stderr).toBe(0);
    const ino = lstatSync(file.path).ino;
    const other = session(join(s.root, 'other.jsonl'), 'another conversation');
    writeFileSync(file.path, readFileSync(other.path));
    expect(lstatSync(file.path).ino).toBe(ino);
    const before = fingerprint(file.path);
    await refused(s, /inplace\.jsonl is another session now/, '--force');
    expect(fingerprint(file.path)).toEqual(before);
  });

  it('a trashed session replaced in the trash by another one: not restored in its place', async () => {
    const s = store();
    const file = session(join(s.projectDir, 'gone.jsonl'));
    const del = await cli(s, 'delete', file.path);
    expect(del.code, del.stderr).toBe(0);
    const [name] = readdirSync(join(s.trash, 'files'));
    const inTrash = join(s.trash, 'files', name!);
    const other = session(join(s.root, 'other.jsonl'), 'someone else');
    renameSync(other.path, inTrash);
    const before = fingerprint(inTrash);
    await refused(s, /the file in the trash is another session/);
    expect(existsSync(file.path)).toBe(false);
    expect(fingerprint(inTrash)).toEqual(before);
  });

  it('records of an older pi-sessions (no session id) are judged by what they have', async () => {
    const s = store();
    // A delete with the trash's own .trashinfo saying where it came from: restored.
    const target = join(s.projectDir, 'old.jsonl');
    const trashed = session(join(s.trash, 'files', 'old.jsonl'));
    const bytes = readFileSync(trashed.path);
    const info = join(s.trash, 'info', 'old.jsonl.trashinfo');
    mkdirSync(join(info, '..'), { recursive: true });
    writeFileSync(info, `[Trash Info]\nPath=${encodeURI(target)}\nDeletionDate=2026-01-05T09:00:00\n`);
    writeJournal(s, [{ kind: 'delete', path: target, how: 'trash', trashedPath: trashed.path, infoPath: info }]);
    const run = await cli(s, 'undo');
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(existsSync(info)).toBe(false);
    // Without it, nothing says the file is the one deleted: refused.
    const second = session(join(s.trash, 'files', 'old2.jsonl'));
    writeJournal(s, [
      {
        kind: 'delete',
        path: join(s.projectDir, 'old2.jsonl'),
        how: 'trash',
        trashedPath: second.path,
        infoPath: null,
      },
    ]);
    await refused(s, /recorded by an older pi-sessions without the session's id/);
    expect(existsSync(second.path)).toBe(true);
    // A rename record without a session id: undone only on the inode it wrote.
    const file = session(join(s.projectDir, 'renamed.jsonl'));
    writeJournal(s, [
      {
        kind: 'rename',
        path: file.path,
        after: { ...stateOf(file.path), ino: 1 },
        entryId: '00000002',
        previousName: 'x',
      },
    ]);
    await refused(s, /has been replaced since/, '--force');
  });

  it('a refused change can be passed over with --skip; an older, honest change is then undone', async () => {
    const s = store();
    const file = session(join(s.projectDir, 'honest.jsonl'));
    const renamed = await cli(s, 'rename', file.path, 'Honest name');
    expect(renamed.code, renamed.stderr).toBe(0);
    const precious = join(s.home, 'notes.txt');
    writeFileSync(precious, 'keep me\n');
    const journal = readFileSync(s.journal, 'utf8');
    writeFileSync(
      s.journal,
      `${journal}${JSON.stringify({ v: 1, kind: 'delete', path: join(s.projectDir, 'n.jsonl'), time: new Date().toISOString(), id: 'bad00001', how: 'trash', trashedPath: precious, infoPath: null })}\n`,
    );
    await refused(s, /not in the trash/);
    const skip = await cli(s, 'undo', '--skip');
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stdout).toMatch(
      /^Skipped the delete of n\.jsonl \(just now\), which cannot be undone: .*notes\.txt is not in the trash/,
    );
    const undo = await cli(s, 'undo');
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(
      /^Undid the rename of “Honest name” \(honest\.jsonl in \/home\/test\/project, just now\): clear the name\.\n$/,
    );
    expect((await openWithPi(file.path)).manager.getSessionName()).toBeUndefined();
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
  });
});
