/**
 * FIFOs where files are expected: `open()` on a FIFO blocks until a writer
 * appears, so each of these hung before only regular files were opened. Real FIFOs (mkfifo),
 * the built CLI with a hard time bound, and the picker in a real pty.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueDir, catalogueFile } from '../../src/catalog/file.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, writeSession } from '../e2e/harness.js';
import { sessionsOf } from '../helpers/cli.js';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { expectCleanRun, jsonOf, runCliAsync } from './run.js';

const ID = '019b0000-0000-7000-8000-00000000f1f0';

let home: TestHome | undefined;
afterEach(() => {
  if (home) rmSync(home.root, { recursive: true, force: true });
  home = undefined;
});

function storeWithFifo(): { home: TestHome; session: string; fifo: string; env: Record<string, string> } {
  home = makeHome();
  const builder = new SessionBuilder({ id: ID, cwd: home.cwd });
  builder.user('hello from the real session');
  const session = writeSession(builder, home.projectDir, `2026-01-05T09-00-00-000Z_${ID}.jsonl`);
  const fifo = join(home.projectDir, 'x.jsonl');
  execFileSync('mkfifo', [fifo]);
  const env = { ...home.env, XDG_CACHE_HOME: join(home.root, 'cache') };
  return { home, session, fifo, env };
}

describe('a FIFO named like a session never hangs anything', () => {
  it('list --all (with and without the catalogue) skips it and lists the rest', async () => {
    const { env, home: h } = storeWithFifo();
    for (const args of [
      ['list', '--all', '--json'],
      ['list', '--all', '--json', '--no-cache'],
      ['list', '--all', '--json'],
    ]) {
      const run = await runCliAsync(args, { env, cwd: h.cwd, timeoutMs: 15_000 });
      expectCleanRun(run, args.join(' '));
      expect(run.code).toBe(0);
      expect((sessionsOf(jsonOf(run)) as { id: string }[]).map((s) => s.id)).toEqual([ID]);
    }
    const plain = await runCliAsync(['list', '--all'], { env, cwd: h.cwd, timeoutMs: 15_000 });
    expect(plain.stdout).toMatch(/1 file skipped \(not sessions\)/);
  });

  it('tree <id prefix> finds the session past the FIFO', async () => {
    const { env, home: h, session } = storeWithFifo();
    const run = await runCliAsync(['tree', ID.slice(0, 13), '--json'], { env, cwd: h.cwd, timeoutMs: 15_000 });
    expectCleanRun(run, 'tree <prefix>');
    expect(run.code).toBe(0);
    expect((jsonOf(run) as { path: string }).path).toBe(session);
  });

  it('tree and context given the FIFO as a path fail at once with one line and exit 1', async () => {
    const { env, home: h, fifo } = storeWithFifo();
    for (const args of [
      ['tree', fifo, '--json'],
      ['context', fifo, '--json'],
    ]) {
      const run = await runCliAsync(args, { env, cwd: h.cwd, timeoutMs: 10_000 });
      expectCleanRun(run, args[0]!);
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(`pi-sessions: ${fifo}: not a regular file (a FIFO)`);
    }
  });

  it('the tree view in a real terminal refuses a FIFO path at once: one line, exit 1, no screen', async () => {
    const { env, home: h, fifo } = storeWithFifo();
    const pty = startApp(h, ['tree', fifo], { env, cols: 400, rows: 20 });
    expect(await pty.waitForExit()).toBe(1);
    expect(pty.screen().trim()).toBe(`pi-sessions: ${fifo}: not a regular file (a FIFO)`);
    expect(pty.rawOutput()).not.toContain('\u001b[?1049h');
  });

  it('a FIFO in place of the catalogue is ignored: the listing works and says nothing about it', async () => {
    const { env, home: h } = storeWithFifo();
    const file = catalogueFile(catalogueDir(env), h.sessionsRoot);
    mkdirSync(join(file, '..'), { recursive: true });
    execFileSync('mkfifo', [file]);
    const run = await runCliAsync(['list', '--all'], { env, cwd: h.cwd, timeoutMs: 15_000 });
    expectCleanRun(run, 'list with a FIFO catalogue');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('hello from the real session');
  });

  it("a FIFO in place of the project's .pi/settings.json is ignored like a missing one", async () => {
    const { env, home: h } = storeWithFifo();
    mkdirSync(join(h.cwd, '.pi'));
    execFileSync('mkfifo', [join(h.cwd, '.pi', 'settings.json')]);
    const run = await runCliAsync(['list', '--json'], { env, cwd: h.cwd, timeoutMs: 10_000 });
    expectCleanRun(run, 'list with a FIFO settings.json');
    expect((sessionsOf(jsonOf(run)) as { id: string }[]).map((s) => s.id)).toEqual([ID]);
  });

  it(
    'the picker lists past the FIFO, and Ctrl+C quits while it is still loading (exit 130)',
    async () => {
      const { env, home: h } = storeWithFifo();
      // Enough sessions that the cold listing is still running when the key arrives: the screen
      // must show the loading progress when Ctrl+C is pressed, and no finished list after it.
      const filler = join(h.sessionsRoot, '--filler--');
      mkdirSync(filler);
      const header = (i: number): string =>
        JSON.stringify({
          type: 'session',
          version: 3,
          id: `019b0000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`,
          timestamp: '2026-01-01T00:00:00.000Z',
          cwd: '/filler',
        });
      for (let i = 0; i < 20_000; i++) writeFileSync(join(filler, `${i}.jsonl`), `${header(i)}\n`);
      const pty = startApp(h, ['--all'], { env, cols: 100, rows: 30 });
      // The status line says `loading <read>/<files>` until the listing is done.
      const loading = await pty.waitForText(/loading \d+\/20002/);
      await pty.press(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
      expect(loading).toMatch(/loading \d+\/20002/);
      // The key was answered before the listing finished: its last frame is never drawn.
      expect(pty.rawOutput()).not.toMatch(/loading 20002\/20002/);

      // Without the filler, the picker shows the real session and the FIFO does not block it.
      rmSync(filler, { recursive: true, force: true });
      expect(readdirSync(h.sessionsRoot)).toHaveLength(1);
      const again = startApp(h, [], { env, cols: 100, rows: 30 });
      await again.waitForText('hello from the real session');
      await again.press(PTY_KEYS.ctrlC);
      expect(await again.waitForExit()).toBe(130);
    },
    E2E_TEST_MS,
  );
});
