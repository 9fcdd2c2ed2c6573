/**
 * The journal after bad luck, for real: a writer killed with SIGKILL in the middle of a record
 * (a torn last line, no newline), a journal truncated mid-line, a trash emptied under recorded
 * deletes. The next change is recorded on a line of its own and is the one undo takes back; a
 * change that can no longer be undone says why and names `--skip`, which passes over it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { expectCleanRun, type Run, runCliAsync } from './run.js';

function store(): { root: string; project: string; env: Record<string, string>; journal: string; trash: string } {
  const root = tempDir('pi-sessions-journal-crash-');
  const project = join(root, 'agent', 'sessions', '--home-u-proj--');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(root, 'home'));
  return {
    root,
    project,
    env: {
      HOME: join(root, 'home'),
      PI_CODING_AGENT_DIR: join(root, 'agent'),
      XDG_STATE_HOME: join(root, 'state'),
      XDG_DATA_HOME: join(root, 'data'),
    },
    journal: join(root, 'state', 'pi-sessions', 'journal.jsonl'),
    trash: join(root, 'data', 'Trash'),
  };
}

function session(path: string, name: string): string {
  const b = new SessionBuilder();
  b.user(`about ${name}`);
  b.assistant('ok');
  b.name(name);
  return b.writeTo(path);
}

const cli = (env: Record<string, string>, ...args: string[]): Promise<Run> => runCliAsync(args, { env });

async function ok(run: Promise<Run>): Promise<Run> {
  const done = await run;
  expect(done.code, done.stderr).toBe(0);
  return done;
}

/**
 * A process that appends one journal record slowly (a chunk every 20 ms, as a writer stalled by
 * a loaded disk would), killed with SIGKILL once part of it is on disk.
 */
async function crashMidRecord(journal: string): Promise<void> {
  const record = JSON.stringify({
    v: 1,
    kind: 'rename',
    path: '/nowhere/torn.jsonl',
    time: new Date().toISOString(),
    id: 'dead0001',
    after: { size: 1, mtimeMs: 1, ino: 1 },
    entryId: 'e0000001',
    previousName: 'x'.repeat(2000),
  });
  const script = `const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'a');
const text = process.argv[2] + '\\n';
let at = 0;
const step = () => { fs.writeSync(fd, text.slice(at, at + 100)); at += 100; setTimeout(step, 20); };
step();`;
  const size = statSync(journal).size;
  const child = spawn(process.execPath, ['-e', script, journal, record], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  while (statSync(journal).size < size + 300) await sleep(5);
  child.kill('SIGKILL');
  await exited;
  const text = readFileSync(journal, 'utf8');
  // Torn for real: the record's start is there, its end and its newline are not.
  expect(text.endsWith('\n')).toBe(false);
  expect(text.length - size).toBeLessThan(record.length);
}

describe('a torn journal', () => {
  it('a writer killed mid-record: the next change gets a line of its own and is the one undone', async () => {
    const s = store();
    const a = session(join(s.project, 'a.jsonl'), 'A');
    await ok(cli(s.env, 'rename', a, 'A1'));
    await crashMidRecord(s.journal);
    await ok(cli(s.env, 'rename', a, 'A2'));
    const lines = readFileSync(s.journal, 'utf8').split('\n');
    // rename A1, the torn fragment (skipped when read), rename A2, and the final newline.
    expect(lines).toHaveLength(4);
    expect(parseJournal(readFileSync(s.journal, 'utf8')).map((r) => r.kind === 'rename' && r.name)).toEqual([
      'A1',
      'A2',
    ]);
    const undo = await ok(cli(s.env, 'undo'));
    expect(undo.stdout).toMatch(/^Undid the rename of “A2” \(a\.jsonl in [^)]*\): name it "A1"\.\n$/);
    expect((await openWithPi(a)).manager.getSessionName()).toBe('A1');
    await ok(cli(s.env, 'undo'));
    expect((await openWithPi(a)).manager.getSessionName()).toBe('A');
  }, 60_000);

  it('a journal truncated in the middle of its last record: that change is lost, the next one is not', async () => {
    const s = store();
    const a = session(join(s.project, 'a.jsonl'), 'A');
    await ok(cli(s.env, 'rename', a, 'A1'));
    await ok(cli(s.env, 'rename', a, 'A2'));
    truncateSync(s.journal, statSync(s.journal).size - 40);
    await ok(cli(s.env, 'label', a, '00000001', 'mark'));
    const list = await ok(cli(s.env, 'undo', '--list'));
    expect(
      list.stdout
        .split('\n')
        .slice(0, 2)
        .map((l) => l.split(/\s+/)[1]),
    ).toEqual(['label', 'rename']);
    expect((await ok(cli(s.env, 'undo'))).stdout).toMatch(/^Undid the label of /);
    expect((await openWithPi(a)).manager.getLabel('00000001')).toBeUndefined();
    expect((await openWithPi(a)).manager.getSessionName()).toBe('A2');
  }, 60_000);
});

describe('stuck history', () => {
  it('a delete whose file is gone from the trash: undo says why and names --skip; --skip passes over it', async () => {
    const s = store();
    const a = session(join(s.project, 'a.jsonl'), 'A');
    const b = session(join(s.project, 'b.jsonl'), 'B');
    await ok(cli(s.env, 'rename', a, 'Renamed A'));
    await ok(cli(s.env, 'delete', b));
    rmSync(s.trash, { recursive: true, force: true }); // the user empties the trash
    for (const args of [['undo'], ['undo', '--force']]) {
      const stuck = await cli(s.env, ...args);
      expectCleanRun(stuck, args.join(' '));
      expect(stuck.code).toBe(1);
      expect(stuck.stderr).toMatch(
        /^pi-sessions: cannot undo the delete of “B” \(b\.jsonl in [^)]*\): it is no longer in the trash: the trash was emptied; `pi-sessions undo --skip` passes over it \(older changes can then be undone\)\n$/,
      );
    }
    const list = await ok(cli(s.env, 'undo', '--list'));
    expect(list.stdout.split('\n')[0]).toMatch(
      /delete {2}the delete of “B” .* → restore it from the trash \(cannot be undone: it is no longer in the trash: the trash was emptied; undo --skip passes over it\)$/,
    );
    const skip = await ok(cli(s.env, 'undo', '--skip'));
    expect(skip.stdout).toMatch(/^Skipped the delete of “B” .*, which cannot be undone: it is no longer in the trash/);
    expect(existsSync(b)).toBe(false);
    const undo = await ok(cli(s.env, 'undo'));
    expect(undo.stdout).toMatch(/^Undid the rename of “Renamed A” .*: name it "A"\.\n$/);
    expect((await openWithPi(a)).manager.getSessionName()).toBe('A');
    // The skip is in the journal (history is not rewritten), and nothing is left to undo.
    expect(parseJournal(readFileSync(s.journal, 'utf8')).map((r) => r.kind)).toEqual([
      'rename',
      'delete',
      'skip',
      'rename',
    ]);
    const nothing = await cli(s.env, 'undo');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(
      /^pi-sessions: nothing to undo: the latest change, the delete of “B” .*, was skipped\n$/,
    );
  }, 60_000);

  it('of several sessions deleted together, those still in the trash come back; the rest are named and passed over', async () => {
    const s = store();
    const files = ['a', 'b', 'c'].map((n) => session(join(s.project, `${n}.jsonl`), n.toUpperCase()));
    const bytes = files.map((f) => readFileSync(f));
    await ok(cli(s.env, 'delete', ...files));
    // One of them is emptied from the trash by hand.
    rmSync(join(s.trash, 'files', 'b.jsonl'));
    const undo = await ok(cli(s.env, 'undo'));
    expect(undo.stdout).toMatch(
      /^Undid the delete of 3 sessions \([^\n]*\): restore the 3 sessions deleted together from the trash; 1 of them could not be restored \(it is no longer in the trash[^\n]*\) and were passed over\.\n$/,
    );
    expect(readFileSync(files[0]!).equals(bytes[0]!)).toBe(true);
    expect(existsSync(files[1]!)).toBe(false);
    expect(readFileSync(files[2]!).equals(bytes[2]!)).toBe(true);
    expect((await cli(s.env, 'undo')).code).toBe(1);
  }, 60_000);
});
