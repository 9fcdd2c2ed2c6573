/**
 * The labels view and the forks joined to the tree, end to end in a real pseudo-terminal: the
 * labels view (Ctrl+L in the picker) lists every label of the scope, filters as you type, opens the tree on the labelled
 * entry (showing it even when the filter hides it), and Esc comes back to the labels view and
 * then to the picker as it was. A fork made by pi 1.6.0's own SessionManager
 * (`createBranchedSession`, what /fork runs) shows as a ⑂ row in its parent's tree at the entry
 * pi branched at; Enter opens the fork's tree, P goes to the parent on the fork point, and Esc
 * walks back through each tree as it was. The corpus's own fork (written by pi, in a store that
 * has moved since) shows in `pi-sessions tree <parent>`, found through the catalogue.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder } from '../helpers/factory.js';
import { piModule } from '../helpers/pi.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

const CTRL_L = '\u000c';
const CTRL_C = '\u0003';

interface Store {
  home: TestHome;
  parentPath: string;
  forkPath: string;
}

/** Two sessions with labels in this folder, and a pi-made fork of the first. */
async function store(): Promise<Store> {
  const home = makeHome();
  const a = new SessionBuilder({ id: '0a000000-0000-7000-8000-000000000000', cwd: home.cwd });
  const plan = a.user('plan the parser');
  a.label(plan, 'parser-plan');
  const ready = a.assistant('The parser plan is ready');
  const call = a.toolCall('bash', { command: 'ls src' });
  // A pure tool-call turn: the default filter hides it.
  a.label(call, 'tool-turn');
  a.toolResult('bash', 'lexer.ts parser.ts');
  a.user('now the unique-after-fork step');
  a.assistant('Done after the fork point');
  a.name('Parser work');
  const parentPath = writeSession(a, home.projectDir, '2026-01-05T09-00-00-000Z_parser.jsonl', 3);

  const b = new SessionBuilder({
    id: '0b000000-0000-7000-8000-000000000000',
    cwd: home.cwd,
    startMs: Date.UTC(2026, 0, 6, 9),
  });
  const prompt = b.user('second session prompt');
  b.assistant('second answer');
  b.label(prompt, 'bookmark-b');
  writeSession(b, home.projectDir, '2026-01-06T09-00-00-000Z_second.jsonl', 2);

  const { SessionManager } = await piModule();
  const forkPath = SessionManager.open(parentPath, home.projectDir, home.cwd).createBranchedSession(ready)!;
  expect(forkPath).toBeTruthy();
  return { home, parentPath, forkPath };
}

function cursorRow(pty: PtySession): string {
  return (
    pty
      .screen()
      .split('\n')
      .find((line) => line.startsWith('›')) ?? ''
  );
}

/**
 * Moves the cursor down from the top to the row showing `text`, one key at a time, judging only
 * whole frames: a screen read in the middle of a frame can show no cursor at all (the old row
 * already redrawn, the new one not yet), and one more key would then overshoot.
 */
async function moveCursorTo(pty: PtySession, text: string): Promise<void> {
  await pty.press(PTY_KEYS.home);
  // Home's own frame: the cursor on the first row of the list (right under the query line).
  let screen = await waitForFrame(
    pty,
    (s) => {
      const lines = s.split('\n');
      const query = lines.findIndex((l) => l.startsWith('Type to search') || l.startsWith('Search:'));
      return query !== -1 && lines[query + 1]?.startsWith('›') === true;
    },
    'the cursor on the first row',
  );
  for (let i = 0; i < 40 && !cursorRow(pty).includes(text); i++) {
    const before = screen;
    await pty.press(PTY_KEYS.down);
    screen = await waitForFrame(pty, (s) => s !== before && cursorRow(pty) !== '', 'the cursor moved');
  }
  expect(cursorRow(pty)).toContain(text);
}

describe('labels view and forks in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('labels view: lists, filters, Enter opens the tree on the entry, Esc Esc Esc back to the picker unchanged', async () => {
    const { home } = await store();
    const pty = startApp(home, [], { cols: 120, rows: 30 });
    await pty.waitForText('Parser work');
    await pty.press(...'second'.split(''));
    const picker = await waitForFrame(
      pty,
      (s) => s.includes('> second') && !s.includes('Parser work'),
      'the search shows the second session only',
    );
    await pty.press(CTRL_L);
    // Every label of the scope: both sessions, and the fork's label pi re-made on its copy.
    // (A screen is read whole only once every part is there: ink writes a frame in several writes.)
    const names = ['[parser-plan]', '[tool-turn]', '[bookmark-b]', '│ Parser work ·'];
    const labels = await waitForFrame(pty, (s) => names.every((n) => s.includes(n)), 'every label');
    expect(labels).toMatch(/Labels · 4 labels/);
    expect(labels.split('\n').filter((l) => l.includes('[parser-plan]')).length).toBe(2);

    await pty.press(...'bookmark'.split(''));
    await waitForFrame(
      pty,
      (s) => /Labels · 1 of 4 labels/.test(s) && s.includes('[bookmark-b]') && !s.includes('[parser-plan]'),
      'only the matching label',
    );
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Session Tree');
    await waitForFrame(
      pty,
      () => cursorRow(pty).includes('[bookmark-b] user: second session prompt'),
      'the cursor is on the labelled entry',
    );

    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Filter: bookmark');
    await pty.press(PTY_KEYS.escape);
    await waitForFrame(
      pty,
      (s) => !s.includes('Filter: bookmark') && s.includes('[parser-plan]'),
      'the filter is cleared',
    );
    await pty.press(PTY_KEYS.escape);
    await waitForFrame(pty, (s) => s === picker, 'the picker exactly as it was');

    // A label on an entry the default filter hides: shown anyway (the first filter that shows it), and said so.
    await pty.press(CTRL_L);
    await pty.waitForText(/Labels · \d+ labels/);
    await pty.press(...'tool-turn'.split(''));
    await pty.waitForText(/Labels · 1 of/);
    await pty.press(PTY_KEYS.enter);
    await waitForFrame(
      pty,
      (s) =>
        s.includes('Filter labeled-only: the default filter hides this entry') &&
        cursorRow(pty).includes('[tool-turn]'),
      'the hidden entry shown, and said so',
    );
    await pty.press(CTRL_C);
    expect(await pty.waitForExit()).toBe(130);
  });

  it("a pi-made fork is a ⑂ row at pi's branch point; Enter opens it, P goes to the parent on the fork point, Esc walks back", async () => {
    const { home } = await store();
    const pty = startApp(home, [], { cols: 120, rows: 30 });
    await pty.waitForText('Parser work');
    await pty.press(...'unique-after-fork'.split(''));
    await pty.waitForText(/1\/\d+/);
    // → at the end of the search text opens the tree (Enter resumes in pi).
    await pty.press(PTY_KEYS.right);
    await pty.waitForText('Session Tree · Parser work');
    // Opened on the picker's hit (its search pre-filled; Esc would go back): the search is
    // deleted word by word (Ctrl+W), and the whole tree shows.
    await pty.waitForText('Search: unique-after-fork');
    for (let i = 0; i < 5 && !pty.screen().includes('Type to search'); i++) {
      const before = pty.screen();
      await pty.press('\u0017');
      await waitForFrame(pty, (s) => s !== before, 'a word of the search deleted');
    }
    await waitForFrame(pty, (s) => s.includes('Type to search'), 'the search cleared');
    const forkRow = await waitForFrame(pty, (s) => s.includes('⑂ fork: plan the parser'), 'the fork row');
    const lines = forkRow.split('\n');
    const at = lines.findIndex((l) => l.includes('⑂ fork:'));
    expect(lines[at - 1]).toContain('assistant: The parser plan is ready');

    await moveCursorTo(pty, '⑂ fork:');
    const parentTree = await waitForFrame(
      pty,
      () => cursorRow(pty).includes('⑂ fork:'),
      'the cursor on the fork row, drawn whole',
    );
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('⑂ fork of Parser work (P opens it)');
    expect(pty.screen()).not.toContain('unique-after-fork');

    await pty.press('P');
    await pty.waitForText('Session Tree · Parser work');
    await waitForFrame(
      pty,
      () => cursorRow(pty).includes('assistant: The parser plan is ready'),
      'the parent opens on the fork point',
    );
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('⑂ fork of Parser work');
    await pty.press(PTY_KEYS.escape);
    await waitForFrame(pty, (s) => s === parentTree, 'the parent tree exactly as it was, cursor on the fork row');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('> unique-after-fork');
    await pty.press(CTRL_C);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('the corpus fork shows as a ⑂ row in `pi-sessions tree <parent>` (found through the catalogue); Enter opens it, Esc returns', async () => {
    const home = makeHome();
    const dir = join(home.sessionsRoot, '--home-dev-code-webshop--');
    cpSync(join(FIXTURES, 'pi-written', 'sessions', '--home-dev-code-webshop--'), dir, { recursive: true });
    // A listing writes the catalogue; the tree alone then lists nothing and reads no other file.
    const list = startApp(home, ['list', '--all']);
    expect(await list.waitForExit()).toBe(0);
    const pty = startApp(
      home,
      ['tree', join(dir, '2026-02-05T11-11-43-835Z_019c2d80-38db-70f7-9c6b-a315ccfcc493.jsonl')],
      { cols: 120, rows: 40 },
    );
    await waitForFrame(pty, (s) => s.includes('⑂ fork:'), 'the fork row');
    await moveCursorTo(pty, '⑂ fork:');
    const parentTree = await waitForFrame(
      pty,
      () => cursorRow(pty).includes('⑂ fork:'),
      'the cursor on the fork row, drawn whole',
    );
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(/⑂ fork of .* \(P opens it\)/);
    await pty.press(PTY_KEYS.escape);
    await waitForFrame(pty, (s) => s === parentTree, 'the parent tree as it was');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
  });

  it('`pi-sessions tree <parent>` with no catalogue yet, the fork in another project, still shows its ⑂ row and leaves the catalogue built', async () => {
    const home = makeHome();
    const dir = join(home.sessionsRoot, '--home-dev-code-webshop--');
    cpSync(join(FIXTURES, 'pi-written', 'sessions', '--home-dev-code-webshop--'), dir, { recursive: true });
    // The fork moved to another project's folder (a fork made with pi --fork from elsewhere).
    const forkName = '2026-02-06T11-50-08-188Z_019c32c9-be3c-70f7-9c6b-a33823ddcd5b.jsonl';
    const elsewhere = join(home.sessionsRoot, '--home-dev-code-other--');
    mkdirSync(elsewhere, { recursive: true });
    renameSync(join(dir, forkName), join(elsewhere, forkName));
    // HOME is the test's (XDG_CACHE_HOME unset): the catalogue would be under its ~/.cache.
    const cacheDir = join(home.root, 'home', '.cache', 'pi-sessions');
    expect(existsSync(cacheDir)).toBe(false);
    const parent = join(dir, '2026-02-05T11-11-43-835Z_019c2d80-38db-70f7-9c6b-a315ccfcc493.jsonl');
    const pty = startApp(home, ['tree', parent], { cols: 120, rows: 40 });
    await waitForFrame(pty, (s) => s.includes('⑂ fork:'), 'the fork row, found with no catalogue');
    await moveCursorTo(pty, '⑂ fork:');
    await waitForFrame(pty, () => cursorRow(pty).includes('⑂ fork:'), 'the cursor on the fork row');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(/⑂ fork of .* \(P opens it\)/);
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Session Tree');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    // The listing that found it wrote the catalogue: the next tree or picker starts warm.
    expect(readdirSync(cacheDir).some((name) => name.startsWith('catalogue-'))).toBe(true);
  });
});
