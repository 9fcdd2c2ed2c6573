/**
 * The tree's rough edges found side by side with pi, in a real pty: deep rows
 * in a narrow terminal pan together exactly as pi 1.6.0's own tree component draws them, and the
 * detail view wraps at words, shows its position and never lets tool output's colour codes
 * through; resuming at a labelled entry keeps the label's time (for us and for pi) and adds no
 * branch point.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { piTreeRows } from '../helpers/pi-tree.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp, waitForFrame, writeSession } from './harness.js';

/** A chain of eight branch points; the leaf is the last second child, eight levels in. */
function deepSession(): SessionBuilder {
  const b = new SessionBuilder();
  let parent = b.user('root message');
  for (let d = 0; d < 8; d++) {
    const first = b.user(`branch ${d} first child with quite some text`);
    b.branchFrom(parent).user(`branch ${d} second child`);
    b.branchFrom(first);
    parent = first;
  }
  b.branchFrom(parent).assistant('the deepest answer');
  return b;
}

/** The list rows on screen: between the query line and the `(i/N)` counter, blank rows dropped. */
function listRows(screen: string): string[] {
  const lines = screen.split('\n').map((line) => line.trimEnd());
  const start = lines.findIndex((line) => line.startsWith('Type to search'));
  const end = lines.findIndex((line) => /^\(\d+\/\d+\)/.test(line));
  return lines.slice(start + 1, end).filter((line) => line !== '');
}

describe('the tree side by side with pi, in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('Up and Down wrap around at both ends, as pi 1.6.0 does (keys one at a time and in one write)', async () => {
    const home = makeHome();
    const b = new SessionBuilder();
    b.user('first question');
    b.assistant('first answer');
    b.user('second question');
    b.assistant('last answer');
    const path = writeSession(b, home.projectDir, 'linear.jsonl');
    const pty = startApp(home, ['tree', path], { cols: 80, rows: 30 });
    await pty.waitForText('◆ assistant: last answer');
    const selected = (rows: string[]): string => rows.find((row) => row.startsWith('›'))?.replace('◆', '•') ?? '';
    // From the leaf (the last row) Down goes to the first row; Up from there back to the last.
    const piAfterDown = selected(await piTreeRows(path, 80, [PTY_KEYS.down]));
    expect(piAfterDown).toContain('user: first question');
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen(
      (s) => selected(listRows(s)) === piAfterDown,
      `Down from the last row selects pi's row "${piAfterDown}"`,
    );
    const piAfterDownUp = selected(await piTreeRows(path, 80, [PTY_KEYS.down, PTY_KEYS.up]));
    expect(piAfterDownUp).toContain('assistant: last answer');
    await pty.press(PTY_KEYS.up);
    await pty.waitForScreen((s) => selected(listRows(s)) === piAfterDownUp, 'Up from the first row selects the last');
    // Both keys in one write, as a fast typist or a slow link delivers them.
    pty.write(PTY_KEYS.down + PTY_KEYS.down);
    await pty.waitForScreen(
      (s) => selected(listRows(s)).includes('first answer'),
      'two Downs in one write: wrap, then one',
    );
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it('after "Resume from here with a summary" the open tree draws what pi 1.6.0 draws for the file', async () => {
    const home = makeHome();
    const b = new SessionBuilder();
    b.user('first question');
    b.assistant('first answer');
    b.user('second question');
    b.assistant('second answer');
    const path = writeSession(b, home.projectDir, 'summary.jsonl');
    const pty = startApp(home, ['tree', path], { cols: 80, rows: 30 });
    await pty.waitForText('◆ assistant: second answer');
    await pty.press(PTY_KEYS.up, PTY_KEYS.up);
    await pty.waitForText('› • assistant: first answer');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Resume from here with a summary');
    await pty.press(PTY_KEYS.down, PTY_KEYS.enter);
    await pty.waitForText('Summary of the branch you leave');
    // Typed in one write, as a paste arrives.
    pty.write('Tried the second question');
    await pty.waitForText('Tried the second question');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Leaf moved');
    await pty.waitForText('◆ [branch summary]: Tried the second question');
    const ours = listRows(pty.screen()).map((row) => row.replace('◆', '•'));
    const pi = await piTreeRows(path, 80);
    expect(ours).toEqual(pi);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it('deep rows at 36 columns pan together, row for row as pi 1.6.0 draws them', async () => {
    const home = makeHome();
    const path = writeSession(deepSession(), home.projectDir, 'deep.jsonl');
    const cols = 36;
    const pty = startApp(home, ['tree', path], { cols, rows: 40 });
    await pty.waitForText('◆ assistant: the deepest');
    await pty.waitForText(/^\(\d+\/\d+\)/m);
    const ours = listRows(pty.screen());
    const pi = await piTreeRows(path, cols);
    expect(ours).toHaveLength(pi.length);
    ours.forEach((row, i) => {
      // Our marks: ◆ for the leaf (pi: •), `…` in the first body column of a panned row, `…` at a cut.
      expect(row[2], `row ${i} is panned`).toBe('…');
      let o = row.replace('◆', '•');
      let p = pi[i]!;
      o = o.slice(0, 2) + o.slice(3);
      p = p.slice(0, 2) + p.slice(3);
      if (o.endsWith('…') && row.length === cols) {
        o = o.slice(0, -1);
        p = p.slice(0, o.length);
      }
      expect(o.trimEnd(), `row ${i}`).toBe(p.trimEnd());
    });
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it('the detail view wraps at words, shows its position, and no colour code reaches the terminal', async () => {
    const home = makeHome();
    const b = new SessionBuilder();
    b.user('run the tests');
    b.toolCall('bash', { command: 'npm test' });
    b.toolResult(
      'bash',
      `\u001b[38;5;196mFAIL\u001b[0m Running the plugin suite with a rather long sentence that has to wrap in the middle\n${Array.from({ length: 40 }, (_, i) => `output line ${i + 1}`).join('\n')}`,
    );
    b.assistant('The tests fail.');
    const path = writeSession(b, home.projectDir, 'detail.jsonl');
    const pty = startApp(home, ['tree', path], { cols: 60, rows: 24 });
    await pty.waitForText('◆ assistant: The tests fail.');
    await pty.press(PTY_KEYS.up);
    await pty.waitForText(/^› .*\[bash: npm test\]/m);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Resume from here');
    await pty.press(PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.enter);
    // The whole frame: its key line comes after the position line, maybe in a later read.
    const detail = await waitForFrame(pty, (s) => /^1–\d+ of \d+$/m.test(s), 'the detail view');
    expect(detail).toMatch(/^FAIL Running the plugin suite with a rather long sentence$/m);
    expect(detail).toMatch(/^that has to wrap in the middle$/m);
    expect(detail).not.toContain('␛');
    expect(detail).toMatch(/^↑↓ scroll {2}PgDn page {2}Esc close$/m);
    expect(pty.rawOutput()).not.toContain('38;5;196');
    await pty.press(PTY_KEYS.end);
    const end = await waitForFrame(pty, (s) => /^\d+–(\d+) of \1$/m.test(s), 'the end of the detail view');
    expect(end).toMatch(/^output line 40$/m);
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('↑↓ move');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it('resume from here on a labelled entry keeps the label’s time and adds no branch point', async () => {
    const home = makeHome();
    const b = new SessionBuilder();
    b.user('first prompt');
    const a1 = b.assistant('first answer');
    b.user('second prompt');
    b.assistant('second answer');
    b.label(a1, 'best approach');
    const path = writeSession(b, home.projectDir, 'labelled.jsonl');
    const labelEntry = JSON.parse(readFileSync(path, 'utf8').trim().split('\n').at(-1)!) as { timestamp: string };
    const pty = startApp(home, ['tree', path], { cols: 100, rows: 24 });
    await pty.waitForText('◆ assistant: second answer');
    expect(pty.screen()).toContain('5 entries · 0 branch points');
    await pty.press('T');
    const shown = await pty.waitForText(/\[best approach\] ([^a-z]+) assistant: first answer/);
    const time = /\[best approach\] ([^a-z]+) assistant: first answer/.exec(shown)![1]!;
    await pty.press(PTY_KEYS.up, PTY_KEYS.up);
    await pty.waitForText(/^› • \[best approach\]/m);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Resume from here');
    await pty.press(PTY_KEYS.enter);
    // The header (the session's facts) and the rows (the reducer's index) are updated by two
    // calls, and a frame may be drawn between them: wait until the leaf has left the old row too.
    const after = await waitForFrame(
      pty,
      (s) => s.includes('6 entries') && !s.includes('◆ assistant: second answer'),
      'the header and the rows after the resume',
    );
    expect(after).toContain('6 entries · 0 branch points');
    expect(after).toContain(`◆ [best approach] ${time} assistant: first answer`);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
    // pi 1.6.0 resumes on the labelled entry and shows the label's original time.
    const pi = (await openWithPi(path)).manager;
    expect(pi.getLabel(a1)).toBe('best approach');
    const stack = [...pi.getTree()];
    let node: { entry: { id: string }; children: unknown[]; labelTimestamp?: string } | undefined = stack.pop();
    while (node !== undefined && node.entry.id !== a1) {
      stack.push(...(node.children as typeof stack));
      node = stack.pop();
    }
    expect(node?.labelTimestamp).toBe(labelEntry.timestamp);
  });
});
