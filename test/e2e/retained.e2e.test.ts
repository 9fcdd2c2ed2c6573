/**
 * Compaction checkpoints end to end in a real pseudo-terminal: the tree view draws a
 * compaction's retained messages as dim rows under it, its search finds their text and its menu
 * refuses to act on them; the picker's full-text search finds a session by retained text only.
 * Runs on copies of the hand-made fixtures in test/fixtures/retained.
 */
import { readFileSync, utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { RETAINED_FILES, retainedPath } from '../helpers/retained.js';
import { copyCorpusSession, E2E_TEST_MS, expectRestored, makeHome, startApp, type TestHome } from './harness.js';

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

/** The fixtures in the home's current folder, dated a month back (not "live"). */
function homeWithFixtures(): { home: TestHome; paths: Map<string, string> } {
  const home = makeHome();
  const paths = new Map<string, string>();
  const old = new Date(Date.now() - 30 * 86_400_000);
  for (const file of RETAINED_FILES) {
    const path = copyCorpusSession(retainedPath(file), home.projectDir, file);
    utimesSync(path, old, old);
    paths.set(file, path);
  }
  return { home, paths };
}

describe('retained messages in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('tree: dim retained rows under the compaction, found by search, not actionable', async () => {
    const { home, paths } = homeWithFixtures();
    const path = paths.get('with-first-kept.jsonl')!;
    const before = readFileSync(path);
    const pty = startApp(home, ['tree', path], { cols: 100, rows: 30 });
    await pty.waitForText('◆ assistant: final answer');
    const screen = pty.screen();
    expect(screen).toContain(
      '  • [compaction: 50k tokens]\n  ┆ retained user: kept request\n  ┆ retained assistant: kept reply, trimmed\n  • user: after compaction',
    );

    await typeText(pty, 'trimmed');
    await pty.waitForText(/Search: trimmed.*1\/1 match/);
    await pty.waitForScreen(
      () => cursorRow(pty).includes('┆ retained assistant: kept reply, trimmed'),
      'the cursor is on the retained match',
    );

    await pty.press(PTY_KEYS.enter);
    const menu = await pty.waitForText('Cancel');
    expect(menu).toContain('Retained: assistant: kept reply, trimmed');
    // Only what can be done to a copy is offered, View first.
    expect(menu).toMatch(/View[\s\S]*Copy[\s\S]*Cancel/);
    expect(menu).not.toContain('Resume from here');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('retained by compaction');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((s) => !s.includes('retained by compaction'), 'the view closes');
    expect(readFileSync(path).equals(before)).toBe(true);

    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForExit();
    expectRestored(pty);
  });

  it('picker: full-text search finds a session by words only its retained messages hold', async () => {
    const { home } = homeWithFixtures();
    const pty = startApp(home, [], { cols: 120, rows: 30 });
    await pty.waitForText(new RegExp(`pi sessions ${RETAINED_FILES.length}/${RETAINED_FILES.length} · this folder`));
    await typeText(pty, 'trimmed');
    await pty.waitForText(new RegExp(`1/${RETAINED_FILES.length} · this folder`));
    expect(pty.screen()).toContain('kept reply, trimmed');
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForExit();
    expectRestored(pty);
  });
});
