/**
 * The catalogue is a cache: an edited one (fields of the wrong type, offsets moved to another
 * session's text, checksums recomputed so only the validation stands) never reaches the user.
 * `list --json` equals `list --json --no-cache`, and the picker shows its sessions, no error, and
 * a search finds each session by its own text.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFile } from '../../src/catalog/index.js';
import { readCatalogueParts, writeCatalogueParts } from '../catalog/catalogue-edit.js';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

function store(home: TestHome): { named: string; zanzibar: string; quokka: string } {
  const write = (prompt: string, answer: string, file: string, name?: string): string => {
    const n = readdirSync(home.projectDir).length;
    const b = new SessionBuilder({
      id: `019b0000-0000-7000-8000-0000000000c${n}`,
      cwd: home.cwd,
      startMs: Date.UTC(2026, 0, 5 + n),
    });
    b.user(prompt);
    b.assistant(answer);
    if (name) b.name(name);
    return writeSession(b, home.projectDir, file);
  };
  return {
    named: write('plain question', 'plain answer', 'a.jsonl', 'The named one'),
    zanzibar: write('first topic', 'the answer mentions zanzibar once', 'b.jsonl'),
    quokka: write('second topic', 'the answer mentions quokka once', 'c.jsonl'),
  };
}

/** Types wrong and texts swapped, every checksum recomputed. */
function editCatalogue(home: TestHome, cacheHome: string, paths: ReturnType<typeof store>): void {
  const file = catalogueFile(join(cacheHome, 'pi-sessions'), home.sessionsRoot);
  const parts = readCatalogueParts(file);
  const record = (path: string) => {
    const found = parts.records.find((r) => r.p === path);
    if (!found) throw new Error(`no record of ${path} in ${parts.records.map((r) => r.p).join(', ')}`);
    return found;
  };
  const named = record(paths.named).s as unknown as Record<string, unknown>;
  named['firstMessage'] = 42;
  named['name'] = 42;
  const [a, b] = [record(paths.zanzibar), record(paths.quokka)];
  [a.t, b.t] = [b.t, a.t];
  writeCatalogueParts(file, parts, { reseal: true });
}

describe('an edited catalogue never reaches the user', { timeout: E2E_TEST_MS }, () => {
  it('list --json equals the listing without the cache; the picker lists, and finds each session by its own text', async () => {
    const home = makeHome();
    const cacheHome = join(home.root, 'cache');
    const env = { ...home.env, XDG_CACHE_HOME: cacheHome };
    const paths = store(home);
    const list = (...args: string[]) => runCli(['list', '--json', ...args], { env, cwd: home.cwd });
    const truth = list('--no-cache');
    expect(truth.code).toBe(0);

    expect(list().stdout).toBe(truth.stdout);

    editCatalogue(home, cacheHome, paths);
    const through = list();
    expect(through.code).toBe(0);
    expect(through.stderr).toBe('');
    expect(through.stdout).toBe(truth.stdout);
    expect(through.stdout).not.toContain('"firstMessage": 42');

    // The listing above dropped what it could not trust, the next one reads those files again: mended.
    expect(list().stdout).toBe(truth.stdout);
    // Edited again, then the picker.
    editCatalogue(home, cacheHome, paths);
    const pty = startApp(home, [], { cols: 120, rows: 20, env: { XDG_CACHE_HOME: cacheHome } });
    const screen = await waitForFrame(pty, (s) => s.includes('The named one') && s.includes('second topic'), 'rows');
    expect(screen).not.toMatch(/Cannot list sessions|is not a function/);
    for (const [word, mine, other] of [
      ['zanzibar', 'first topic', 'second topic'],
      ['quokka', 'second topic', 'first topic'],
    ] as const) {
      pty.write(word);
      const found = await waitForFrame(pty, (s) => s.includes(mine) && !s.includes('The named one'), `${word} found`);
      expect(found).not.toContain(other);
      await pty.press('\u0015');
      await waitForFrame(pty, (s) => s.includes('The named one'), 'all rows back');
    }
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
  });
});
