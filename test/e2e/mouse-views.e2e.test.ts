/**
 * The mouse on the stats screen and in the check view, in a real terminal: the wheel moves the
 * selection (reports written one at a time and several in one write), a click selects the row or
 * the file under it, a click beside the rows selects nothing, and a double click opens the tree,
 * as Enter does; Esc comes back to the screen as it was.
 */
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

const press = (x: number, y: number): string => `\u001b[<0;${x};${y}M`;
const release = (x: number, y: number): string => `\u001b[<0;${x};${y}m`;
const click = (x: number, y: number): string => press(x, y) + release(x, y);
const WHEEL_DOWN = '\u001b[<65;20;8M';
const WHEEL_UP = '\u001b[<64;20;8M';
/** Alt+C opens the check view. */
const ALT_C = '\u001bc';

/** The selected row or file: the line that starts with the cursor mark. */
const selected = (screen: string): string => screen.split('\n').find((line) => line.startsWith('›')) ?? '';

function waitSelected(pty: PtySession, text: string): Promise<string> {
  return waitForFrame(pty, (s) => selected(s).includes(text), `"${text}" selected`);
}

/** The terminal line (1-based, as mouse reports count) the first line holding `text` is drawn on. */
function lineOf(screen: string, text: string): number {
  const y = screen.split('\n').findIndex((line) => line.includes(text)) + 1;
  expect(y, `"${text}" on screen`).toBeGreaterThan(0);
  return y;
}

/** `count` sessions in this folder, `topic 00` the costliest and largest, one a day. */
function sessions(home: TestHome, count: number): void {
  for (let i = 0; i < count; i++) {
    const name = String(i).padStart(2, '0');
    const b = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2026, 2, 1 + i, 9) });
    b.user(`topic ${name} question`);
    b.assistant(`answer ${name} ${'x'.repeat((count - i) * 200)}`, {
      tokens: 1000 * (count - i),
      cost: 0.1 * (count - i),
    });
    writeSession(b, home.projectDir, `2026-03-${name}_s.jsonl`, 30);
  }
}

/** The tree screen, loaded, with the session whose prompt is `prompt`. */
function treeOf(pty: PtySession, prompt: string): Promise<string> {
  return waitForFrame(pty, (s) => s.startsWith('Session Tree') && s.includes(prompt), `the tree of "${prompt}"`);
}

/** `?` and `?` again: once the help (titled `title`) has come and gone, every report written before it was taken. */
async function helpRoundTrip(pty: PtySession, title: string): Promise<string> {
  await pty.press('?');
  await pty.waitForText(title);
  await pty.press('?');
  return waitForFrame(pty, (s) => !s.includes(title), 'the help closed');
}

describe('the mouse on the stats screen and in the check view', { timeout: E2E_TEST_MS }, () => {
  // 100×24: the title on line 1, chart lines on 2–22 (21 of 27, the last of them topic 00's), the key line on 23.
  it('stats: the wheel steps through the session rows, scrolling to reach them; a click selects one; a double click opens its tree', async () => {
    const home = makeHome();
    sessions(home, 6);
    const pty = startApp(home, [], { cols: 100, rows: 24, env: { TZ: 'UTC' } });
    await pty.waitForText(/6\/6 · this folder/);
    await pty.press('$');
    await pty.waitForText(/lines 1–21 of 27/);
    expect(selected(pty.screen())).toBe('');
    // A notch is three Downs: topic 00 (on the last line) selected, a line's scroll, topic 01.
    pty.write(WHEEL_DOWN);
    await waitSelected(pty, 'topic 01 question');
    expect(pty.screen()).toMatch(/lines 2–22 of 27/);
    // Two notches in one write: three more scrolls, three more rows.
    pty.write(WHEEL_DOWN + WHEEL_DOWN);
    await waitSelected(pty, 'topic 04 question');
    pty.write(WHEEL_UP);
    const up = await waitSelected(pty, 'topic 01 question');
    expect(up).toMatch(/lines 5–25 of 27/);
    pty.write(click(50, lineOf(up, 'topic 03 question')));
    const clicked = await waitSelected(pty, 'topic 03 question');
    // A click on a day's bar, the title or the key line selects nothing.
    pty.write(click(30, lineOf(clicked, '2026-03-01  ')) + click(30, 1) + click(30, 23));
    const after = await helpRoundTrip(pty, 'Usage stats keys');
    expect(selected(after)).toContain('topic 03 question');
    // A double click, each half in writes of its own: the session's tree; Esc, the stats as they were.
    const y = lineOf(after, 'topic 02 question');
    for (const report of [press(5, y), release(5, y), press(5, y), release(5, y)]) pty.write(report);
    const tree = await treeOf(pty, 'topic 02 question');
    expect(tree).not.toContain('topic 03 question');
    await pty.press(PTY_KEYS.escape);
    await waitSelected(pty, 'topic 02 question');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  // 100×20: the title on line 1, the lines on 2–18, the key line on 19. The summary takes three
  // lines; each file after it a blank line and four of its own (title, path, two of health).
  it('check: the wheel scrolls and the selection follows; a click selects a file; a double click opens its tree', async () => {
    const home = makeHome();
    sessions(home, 12);
    const pty = startApp(home, [], { cols: 100, rows: 20 });
    await pty.waitForText(/12\/12 · this folder/);
    await pty.press(ALT_C);
    const top = await pty.waitForText('No problems in 12 files');
    expect(selected(top)).toContain('topic 00 question');
    // Three lines down topic 00 still starts on screen, and stays selected; three more, it does not.
    pty.write(WHEEL_DOWN);
    await waitForFrame(pty, (s) => s.split('\n')[2]!.startsWith('› topic 00 question'), 'three lines scrolled');
    pty.write(WHEEL_DOWN);
    await waitSelected(pty, 'topic 01 question');
    pty.write(WHEEL_DOWN + WHEEL_DOWN);
    await waitSelected(pty, 'topic 02 question');
    pty.write(WHEEL_UP);
    const up = await waitSelected(pty, 'topic 01 question');
    // Any line of a file's block selects it: here topic 03's path line.
    pty.write(click(50, lineOf(up, '2026-03-03_s.jsonl')));
    const clicked = await waitSelected(pty, 'topic 03 question');
    // A blank line between files, the title or the key line selects nothing.
    const blank = lineOf(clicked, 'topic 03 question') - 1;
    expect(clicked.split('\n')[blank - 1]!.trim()).toBe('');
    pty.write(click(30, blank) + click(30, 1) + click(30, 19));
    const after = await helpRoundTrip(pty, 'Check view keys');
    expect(selected(after)).toContain('topic 03 question');
    // Two clicks on topic 04's block in one write: a double click opens its tree.
    pty.write(click(50, lineOf(after, '2026-03-04_s.jsonl')) + click(10, lineOf(after, 'topic 04 question')));
    const tree = await treeOf(pty, 'topic 04 question');
    expect(tree).not.toContain('topic 03 question');
    await pty.press(PTY_KEYS.escape);
    await waitSelected(pty, 'topic 04 question');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });
});
