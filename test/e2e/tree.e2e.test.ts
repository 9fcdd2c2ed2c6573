/**
 * The tree navigator, end to end in a real pseudo-terminal, on a copy of a pi-written corpus
 * session with two branch points ("branch-reedit": re-edited prompts, leaf on an older branch).
 * After folding, filtering, searching, labelling, resuming from an entry and forking, the files
 * are checked with the store and with the real pi 1.6.0 SessionManager: the labels, the name
 * and the leaf (the path pi resumes on) must be what pi computes from the same bytes.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, getBranch, type LoadedSession, readSessionSync, type SessionEntry } from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { copyCorpusSession, E2E_TEST_MS, expectRestored, makeHome, startApp, writeSession } from './harness.js';

const BRANCH_REEDIT = join(
  FIXTURES,
  'pi-written',
  'sessions',
  '--home-dev-code-pi-tools--',
  '2026-02-05T09-12-40-244Z_019c2d13-3834-70f7-9c6b-a3040ab3463b.jsonl',
);
const FILE = '2026-02-05T09-12-40-244Z_019c2d13-3834-70f7-9c6b-a3040ab3463b.jsonl';
const CTRL = { u: '\u0015', g: '\u0007' } as const;
const LEAF_ROW = '◆ assistant: Updated `renderCart`';

function load(path: string): LoadedSession {
  const session = readSessionSync(path);
  if (!session.ok) throw new Error(session.message);
  return session;
}

function userEntry(session: LoadedSession, text: string): SessionEntry {
  const found = session.entries.find((e) => {
    const message = (e as { message?: { role?: unknown; content?: unknown } }).message;
    return message?.role === 'user' && JSON.stringify(message.content).includes(text);
  });
  if (!found) throw new Error(`no user entry with "${text}"`);
  return found;
}

/** The row under the cursor (`›` in the first column). */
function cursorRow(pty: PtySession): string {
  return (
    pty
      .screen()
      .split('\n')
      .find((line) => line.startsWith('›')) ?? ''
  );
}

async function typeText(pty: PtySession, text: string): Promise<void> {
  await pty.press(...text.split(''));
}

/** What pi and the store say about a file: same leaf path, name and labels. */
async function expectStoreMatchesPi(path: string): Promise<void> {
  const tree = buildTree(load(path));
  const pi = await openWithPi(path);
  expect(pi.changedOnOpen).toBe(false);
  expect(getBranch(tree, tree.leafId).map((e) => e.id)).toEqual(pi.manager.getBranch().map((e) => e.id));
  expect(tree.sessionName).toBe(pi.manager.getSessionName());
  for (const entry of pi.manager.getEntries()) expect(tree.labels.get(entry.id)).toBe(pi.manager.getLabel(entry.id));
}

describe('tree view in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('folds, filters, searches, labels, resumes from an entry and forks; pi agrees with every file', async () => {
    const home = makeHome();
    const path = copyCorpusSession(BRANCH_REEDIT, home.projectDir, FILE);
    const source = load(path);
    const actually = userEntry(source, 'Actually, let');
    const third = userEntry(source, 'Try a third variant');
    const first = userEntry(source, 'Add missing buffer support');

    const pty = startApp(home, ['tree', path], { cols: 100, rows: 40 });
    await pty.waitForText(LEAF_ROW);
    expect(pty.screen()).toContain('Session Tree');
    expect(pty.screen()).toMatch(/32 entries · 2 branch points/);

    // Fold: the branch below the leaf's branch ("Actually, …") folds and unfolds.
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen(() => cursorRow(pty).includes('user: Actually'), 'the cursor is on "Actually"');
    await pty.press(PTY_KEYS.left);
    await pty.waitForScreen(
      (s) => !s.includes('Try a third variant') && /⊞.*user: Actually/.test(cursorRow(pty)),
      'the branch is folded',
    );
    await pty.press(PTY_KEYS.right);
    await pty.waitForText('Try a third variant');

    // Filter: user messages only, then back to the default.
    await pty.press(CTRL.u);
    await pty.waitForScreen((s) => !s.includes('[bash:') && !s.includes('assistant:'), 'only user rows are shown');
    expect(pty.screen()).toContain('user: Try a third variant');
    await pty.press(CTRL.u);
    await pty.waitForText('[bash:');

    // Search: narrows to the matches and their ancestors; Esc clears.
    await typeText(pty, 'third');
    await pty.waitForText(/Search: third/);
    await pty.waitForScreen((s) => !s.includes('Add pending batch'), 'the search hides other branches');
    expect(pty.screen()).toMatch(/1\/1 match/);
    expect(pty.screen()).toContain('user: Try a third variant');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Add pending batch');

    // Label (Shift+L) the first entry.
    // Home goes to the first row: the session's system message, which pi's /tree draws too.
    await pty.press(PTY_KEYS.home);
    await pty.waitForScreen(() => cursorRow(pty).includes('[system]'), 'the cursor is on the system message');
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen(
      () => cursorRow(pty).includes('Add missing buffer support'),
      'the cursor is on the first prompt',
    );
    await pty.press('L');
    await pty.waitForText(/Label/);
    await typeText(pty, 'start-here');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForScreen(() => cursorRow(pty).includes('[start-here]'), 'the label shows on the row');
    // The row shows the label at once; the write (the session, then the journal under its lock) is done
    // when the status says so, and the tree takes one write at a time.
    await pty.waitForText('✓ Labeled [start-here]');
    expect(buildTree(load(path)).labels.get(first.id)).toBe('start-here');

    // Resume from here on a user message: pi's semantics put the leaf on its parent.
    await typeText(pty, 'third');
    await pty.waitForScreen(() => cursorRow(pty).includes('Try a third variant'), 'the cursor is on the match');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Resume from here');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Leaf moved: pi resumes here next time');
    // Its text is shown in a detail view, so it can be re-sent.
    await pty.waitForText('To re-send it (edited or not), copy it from here');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/Search: third/);
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Type to search');
    await pty.press(CTRL.g);
    const parent = third.parentId!;
    const afterResume = buildTree(load(path));
    expect(
      getBranch(afterResume, afterResume.leafId)
        .map((e) => e.id)
        .filter((id) => load(path).entries.find((e) => e.id === id)?.type !== 'label')
        .at(-1),
    ).toBe(parent);
    await pty.waitForScreen(() => cursorRow(pty).includes('◆'), 'the cursor is on the new leaf');
    expect(cursorRow(pty)).not.toContain('Updated `renderCart`');
    await expectStoreMatchesPi(path);
    const piAfterResume = await openWithPi(path);
    expect(piAfterResume.manager.getBranch().map((e) => e.id)).toContain(parent);
    expect(piAfterResume.manager.getBranch().map((e) => e.id)).not.toContain(third.id);

    // Fork at "Actually, …" as pi's /fork does: the new session ends before it, and its text is shown to re-send.
    const before = new Set(readdirSync(home.projectDir));
    await typeText(pty, 'Actually');
    await pty.waitForScreen(() => cursorRow(pty).includes('user: Actually'), 'the cursor is on "Actually"');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Fork to a new session');
    await pty.press(PTY_KEYS.down, PTY_KEYS.down);
    await pty.waitForText(/❯ Fork to a new session/);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('✓ Forked before the message, to');
    expect(pty.screen()).toContain('New session: ');
    expect(pty.screen()).toContain('Message to re-send: Actually');
    const created = readdirSync(home.projectDir).filter((name) => !before.has(name));
    expect(created).toHaveLength(1);
    const forkPath = join(home.projectDir, created[0]!);
    // The offer to open it in pi, or stay.
    await pty.press(PTY_KEYS.down);
    await pty.waitForText('❯ Stay here');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(/Search: Actually/);
    const fork = load(forkPath);
    expect(fork.header['parentSession']).toBe(path);
    const forkPi = await openWithPi(forkPath);
    expect(forkPi.changedOnOpen).toBe(false);
    // The fork's conversation is the source's path up to the parent of "Actually, …" (entries re-chained, same messages).
    const sourceBranch = getBranch(buildTree(load(path)), actually.parentId!).filter((e) => e.type === 'message');
    expect(sourceBranch.map((e) => e.id)).not.toContain(actually.id);
    const forkMessages = (forkPi.manager.getBranch() as unknown as { type: string; message: unknown }[]).filter(
      (e) => e.type === 'message',
    );
    expect(forkMessages.map((e) => JSON.stringify(e.message))).toEqual(
      sourceBranch.map((e) => JSON.stringify((e as unknown as { message: unknown }).message)),
    );
    await expectStoreMatchesPi(forkPath);
    // Labels on the forked path travel with it, as pi's createBranchedSession does.
    expect(buildTree(fork).labels.size).toBe(1);
    expect([...buildTree(fork).labels.values()]).toEqual(['start-here']);

    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Type to search');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    await expectStoreMatchesPi(path);
  });

  it('opens from the picker and Esc returns with the query and cursor intact', async () => {
    const home = makeHome();
    copyCorpusSession(BRANCH_REEDIT, home.projectDir, FILE);
    const other = new SessionBuilder({ id: '019b0000-aaaa-7000-8000-000000000001', cwd: home.cwd });
    other.user('an unrelated session');
    other.assistant('fine');
    writeSession(other, home.projectDir, '2026-01-01T00-00-00-000Z_other.jsonl');

    const pty = startApp(home, [], { cols: 100, rows: 40 });
    await pty.waitForText(/2\/2 · this folder/);
    await typeText(pty, 'resolveBundle');
    await pty.waitForText(/1\/2 · this folder/);
    // On a full-text hit the tree opens on it (find-hits.e2e.test.ts has the branch-aware case);
    // while that search stands unedited, one Esc goes back. → at the end of the search opens the
    // tree (Enter resumes in pi).
    await pty.press(PTY_KEYS.right);
    await pty.waitForText(/Search: resolvebundle/);
    // The search line can be drawn a frame before the cursor lands on the hit.
    await pty.waitForScreen(
      () => cursorRow(pty).includes('user: Add missing buffer support to `resolveBundle`'),
      'the cursor on the hit',
    );
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/1\/2 · this folder/);
    expect(pty.screen()).toMatch(/> resolveBundle/);
    await pty.press(PTY_KEYS.escape, PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('re-lays out the tree at 40×12 and back', async () => {
    const home = makeHome();
    const path = copyCorpusSession(BRANCH_REEDIT, home.projectDir, FILE);
    const pty = startApp(home, ['tree', path], { cols: 100, rows: 40 });
    await pty.waitForText(LEAF_ROW);
    pty.resize(40, 12);
    // The app's own narrow frame: rows cut with an ellipsis, the cursor row still on the leaf.
    const narrow = await pty.waitForScreen(
      (s) => s.includes('…') && /^› .*◆/m.test(s) && s.startsWith('Session Tree'),
      'the narrow layout',
    );
    expect(narrow.split('\n').length).toBeLessThanOrEqual(12);
    for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    pty.resize(100, 40);
    await pty.waitForText(LEAF_ROW);
    await pty.waitForText('Try a third variant');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });
});
