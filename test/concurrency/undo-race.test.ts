/**
 * At most once, under concurrency: two `pi-sessions undo` processes started at the same moment
 * (real processes, the built CLI, repeated) take back the change once; the other says it was
 * already undone and exits 1; the journal records the undo once, and the session file holds one
 * undo entry. Every journal update takes the journal's lock (src/store/journal/lock.ts), and an
 * undo claims its change under it, so whichever process comes second finds the change undone.
 * Writes recorded by many processes at once are each recorded once, on a line of their own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/store/index.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { expectCleanRun, type Run, runCliAsync } from '../hostile/run.js';

function store(): { file: string; env: Record<string, string>; journal: string; root: string } {
  const root = tempDir('pi-sessions-undo-race-');
  const project = join(root, 'agent', 'sessions', '--home-u-proj--');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(root, 'home'));
  const b = new SessionBuilder();
  b.user('race me');
  b.assistant('ok');
  b.name('Start');
  const file = b.writeTo(join(project, 's.jsonl'));
  const env = {
    HOME: join(root, 'home'),
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: join(root, 'data'),
  };
  return { file, env, journal: join(root, 'state', 'pi-sessions', 'journal.jsonl'), root };
}

/** Starts the CLI processes together (spawned back to back, before either has read a byte). */
function together(count: number, args: string[], env: Record<string, string>): Promise<Run[]> {
  return Promise.all(Array.from({ length: count }, () => runCliAsync(args, { env, timeoutMs: 60_000 })));
}

const ROUNDS = 10;

describe('two undos at once', () => {
  it(`undo the change once; the other says "already undone" (${ROUNDS} rounds)`, async () => {
    const { file, env, journal } = store();
    for (let round = 0; round < ROUNDS; round++) {
      const renamed = await runCliAsync(['rename', file, `Name ${round}`], { env });
      expect(renamed.code, renamed.stderr).toBe(0);
      const changeId = parseJournal(readFileSync(journal, 'utf8')).at(-1)!.id!;
      const entriesBefore = (await openWithPi(file)).manager.getEntries().length;

      const runs = await together(2, ['undo'], env);
      for (const run of runs) expectCleanRun(run, `round ${round}`);
      const done = runs.filter((r) => r.code === 0);
      const other = runs.filter((r) => r.code !== 0);
      expect(done, JSON.stringify(runs)).toHaveLength(1);
      expect(done[0]!.stdout).toMatch(/^Undid the rename of “Name \d+” /);
      expect(other).toHaveLength(1);
      expect(other[0]!.code).toBe(1);
      // Whether it read the journal before or after the first undo, it says the change was already undone.
      expect(other[0]!.stderr).toMatch(/^pi-sessions: [^\n]*was already undone\n$/);

      const records = parseJournal(readFileSync(journal, 'utf8'));
      expect(records.filter((r) => r.undoes === changeId)).toHaveLength(1);
      const pi = (await openWithPi(file)).manager;
      expect(pi.getEntries()).toHaveLength(entriesBefore + 1);
      // Each round's rename was taken back once: the name is the one before it.
      expect(pi.getSessionName()).toBe('Start');
    }
  }, 240_000);

  it('many processes recording changes at once: each recorded once, every line whole', async () => {
    const { file, env, journal } = store();
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => runCliAsync(['label', file, '00000001', `mark ${i}`], { env })),
    );
    for (const run of runs) {
      expectCleanRun(run, 'concurrent label');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
    }
    const text = readFileSync(journal, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(new Set(parseJournal(text).map((r) => r.id)).size).toBe(6);
  }, 120_000);

  it('a lock held by a live process is waited for; a lock its dead holder left is taken over', async () => {
    const { file, env, journal } = store();
    mkdirSync(join(journal, '..'), { recursive: true });
    const lockModule = pathToFileURL(join(REPO_ROOT, 'dist', 'src', 'store', 'journal', 'lock.js')).href;
    /** A process holding the journal's lock through the store's own code, for `ms` (or until killed). */
    const holdLock = (ms: number): { child: ChildProcess; held: Promise<void>; exited: Promise<void> } => {
      const child = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { withJournalLock } = await import(${JSON.stringify(lockModule)});
await withJournalLock(process.argv[1], async () => { process.stdout.write('held\\n'); await new Promise((r) => setTimeout(r, ${ms})); });`,
          join(journal, '..'),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const held = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      return { child, held, exited };
    };
    const holder = holdLock(1500);
    await holder.held;
    const started = Date.now();
    const run = await runCliAsync(['rename', file, 'After the wait'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(Date.now() - started).toBeGreaterThan(500);
    expect(parseJournal(readFileSync(journal, 'utf8')).at(-1)).toMatchObject({
      kind: 'rename',
      name: 'After the wait',
    });
    await holder.exited;

    // Killed while holding it: the next change takes the stale lock over at once.
    const killed = holdLock(600_000);
    await killed.held;
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(join(journal, '..', 'journal.lock'))).toBe(true);
    const after = await runCliAsync(['rename', file, 'After the crash'], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toBe('');
    expect(after.ms).toBeLessThan(5_000);
    expect(parseJournal(readFileSync(journal, 'utf8')).at(-1)).toMatchObject({ name: 'After the crash' });
    expect(existsSync(join(journal, '..', 'journal.lock'))).toBe(false);
  }, 120_000);
});
