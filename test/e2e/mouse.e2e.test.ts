/**
 * The mouse in a real terminal: the app turns SGR mouse reporting on, the wheel scrolls and a
 * click selects in the picker and the tree (reports written one at a time and several in one
 * write), a double click resumes (here `--print` prints) or opens the tree's actions, no report
 * ever reaches the search as text, and after quitting the output ends with the mouse turned off.
 * `--no-mouse` and pi-sessions' settings key leave the mouse to the terminal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENABLE_MOUSE, LEAVE_WITH_MOUSE } from '../../src/terminal/screen.js';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import {
  E2E_TEST_MS,
  expectRestored,
  makeHome,
  startApp,
  type TestHome,
  waitForFrame,
  writeSession,
} from './harness.js';

const press = (x: number, y: number): string => `\u001b[<0;${x};${y}M`;
const release = (x: number, y: number): string => `\u001b[<0;${x};${y}m`;
const click = (x: number, y: number): string => press(x, y) + release(x, y);
const WHEEL_DOWN = '\u001b[<65;20;8M';
const WHEEL_UP = '\u001b[<64;20;8M';

/** 30 sessions, `session 00` the newest (the top row) to `session 29`. */
function store(home: TestHome): string[] {
  const paths: string[] = [];
  for (let i = 0; i < 30; i++) {
    // Distinct ids, and each session an hour older than the one before.
    const b = new SessionBuilder({
      cwd: home.cwd,
      id: `019b0000-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`,
      startMs: Date.UTC(2026, 0, 5, 9) - i * 3_600_000,
    });
    b.user(`session ${String(i).padStart(2, '0')} topic`);
    b.assistant('ok');
    paths[i] = writeSession(b, home.projectDir, `${String(i).padStart(2, '0')}.jsonl`, 10 + i);
  }
  return paths;
}

/** The picker's highlighted row: the line that starts with the cursor mark. */
function selected(screen: string): string {
  return screen.split('\n').find((line) => line.startsWith('›')) ?? '';
}

function waitSelected(pty: PtySession, title: string): Promise<string> {
  return waitForFrame(pty, (s) => selected(s).includes(title), `the cursor on "${title}"`);
}

/**
 * The app's output ends with the mouse off (and the rest of the restore): after it only ink's
 * cursor-show, line ends, and what was asked for (`--print`'s path, written once the terminal is back).
 */
function expectMouseOffAtEnd(pty: PtySession, printed = ''): void {
  const out = pty.rawOutput();
  const at = out.lastIndexOf(LEAVE_WITH_MOUSE);
  expect(out.indexOf(ENABLE_MOUSE), 'the mouse was turned on').toBeGreaterThanOrEqual(0);
  expect(at, 'the mouse turned off after it was turned on').toBeGreaterThan(out.lastIndexOf(ENABLE_MOUSE));
  const after = out.slice(at + LEAVE_WITH_MOUSE.length).replace(printed, '');
  expect(JSON.stringify(after)).toMatch(/^"(\\u001b\[\?25h|\\r|\\n)*"$/);
  expectRestored(pty);
}

describe('the mouse in a real terminal', { timeout: E2E_TEST_MS }, () => {
  // 100×16: the header on lines 1–2, the list on lines 3–14 (twelve rows), the footer on line 15.
  it('picker: the wheel scrolls and a click selects, one report at a time and several in one write', async () => {
    const home = makeHome();
    store(home);
    const pty = startApp(home, [], { cols: 100, rows: 16 });
    await waitSelected(pty, 'session 00 topic');
    expect(pty.rawOutput()).toContain(ENABLE_MOUSE);
    pty.write(WHEEL_DOWN);
    await waitSelected(pty, 'session 03 topic');
    pty.write(WHEEL_DOWN);
    pty.write(WHEEL_DOWN);
    await waitSelected(pty, 'session 09 topic');
    pty.write(WHEEL_DOWN.repeat(4));
    const scrolled = await waitSelected(pty, 'session 21 topic');
    // The viewport followed: the top rows are gone.
    expect(scrolled).not.toContain('session 00 topic');
    pty.write(WHEEL_UP + WHEEL_UP);
    await waitSelected(pty, 'session 15 topic');
    // Line 3 is the first row on screen: 21 − 11 = 10 rows were scrolled off.
    pty.write(click(30, 3));
    await waitSelected(pty, 'session 10 topic');
    pty.write(click(30, 5) + click(30, 7));
    await waitSelected(pty, 'session 14 topic');
    // A click on the header or the footer selects nothing.
    pty.write(click(30, 1) + click(30, 15));
    pty.write(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expect(selected(pty.screen())).toBe('');
    expectMouseOffAtEnd(pty);
  });

  it('picker: the search never receives mouse bytes (SGR, cut across writes, X10); a double click prints the session with --print', async () => {
    const home = makeHome();
    const paths = store(home);
    const pty = startApp(home, ['--print'], { cols: 100, rows: 16 });
    await waitSelected(pty, 'session 00 topic');
    pty.write('topic');
    await waitForFrame(pty, (s) => s.split('\n')[1]!.includes('topic'), 'the search typed');
    // Reports cut in the middle, several in one write, a release, the legacy X10 form (a wheel
    // notch down, `a` = 32 + 65, then a release, `#` = 32 + 3).
    pty.write('\u001b[<0;30;');
    pty.write(`6M${release(30, 6)}${WHEEL_DOWN}\u001b[Ma#$\u001b[M#&&`);
    await waitSelected(pty, 'session 09 topic');
    const screen = pty.screen();
    const searchLine = screen.split('\n')[1]!;
    expect(searchLine).toContain('topic');
    expect(searchLine).not.toMatch(/[<;#$&]|\d+M|topic\S|a#/);
    expect(screen).not.toContain('No sessions match');
    // Two clicks on session 07's line (its row, as the list is scrolled now) in one write: a double click.
    const lines = screen.split('\n');
    const y = lines.findIndex((line) => line.includes('session 07 topic')) + 1;
    expect(y).toBeGreaterThanOrEqual(3);
    pty.write(click(30, y) + click(30, y));
    expect(await pty.waitForExit()).toBe(0);
    expect(pty.rawOutput()).toContain(paths[7]!);
    expectMouseOffAtEnd(pty, paths[7]);
  });

  it('tree: the wheel scrolls, a click selects, a double click opens the actions; the menu takes the wheel', async () => {
    const home = makeHome();
    const b = new SessionBuilder({ cwd: home.cwd });
    for (let i = 0; i < 20; i++) {
      b.user(`question ${String(i).padStart(2, '0')}`);
      b.assistant(`answer ${String(i).padStart(2, '0')}`);
    }
    const path = writeSession(b, home.projectDir, 'long.jsonl');
    // 80×20: title, facts and query line on lines 1–3, rows from line 4, fourteen of them.
    const pty = startApp(home, ['tree', path], { cols: 80, rows: 20 });
    await pty.waitForText('answer 19');
    pty.write(PTY_KEYS.home);
    await waitForFrame(pty, (s) => selected(s).includes('question 00'), 'the first row selected');
    pty.write(WHEEL_DOWN);
    await waitForFrame(pty, (s) => selected(s).includes('answer 01'), 'three rows down');
    pty.write(WHEEL_DOWN.repeat(5));
    await waitForFrame(pty, (s) => selected(s).includes('question 09'), 'eighteen rows down');
    const screen = pty.screen();
    const y = screen.split('\n').findIndex((line) => line.includes('question 07')) + 1;
    expect(y).toBeGreaterThanOrEqual(4);
    pty.write(click(20, y));
    await waitForFrame(pty, (s) => selected(s).includes('question 07'), 'the clicked row selected');
    // A double click, each half in writes of its own.
    for (const report of [press(20, y), release(20, y), press(20, y), release(20, y)]) pty.write(report);
    await pty.waitForText('Resume from here');
    pty.write(WHEEL_DOWN);
    await waitForFrame(pty, (s) => /[❯›>] *Resume from here with a summary/.test(s), 'the wheel moved the menu choice');
    pty.write(PTY_KEYS.escape);
    await waitForFrame(pty, (s) => !s.includes('Resume from here') && selected(s).includes('question 07'), 'back');
    pty.write(PTY_KEYS.ctrlC);
    await pty.waitForExit();
    expectMouseOffAtEnd(pty);
  });

  it('--no-mouse and "pi-sessions": {"mouse": false} never turn it on', async () => {
    const home = makeHome();
    store(home);
    const flag = startApp(home, ['--no-mouse'], { cols: 100, rows: 16 });
    await waitSelected(flag, 'session 00 topic');
    flag.write(PTY_KEYS.escape);
    expect(await flag.waitForExit()).toBe(0);
    expect(flag.rawOutput()).not.toMatch(/\u001b\[\?100[06][hl]/);
    writeFileSync(join(home.agentDir, 'settings.json'), JSON.stringify({ 'pi-sessions': { mouse: false } }));
    const setting = startApp(home, [], { cols: 100, rows: 16 });
    await waitSelected(setting, 'session 00 topic');
    setting.write(PTY_KEYS.escape);
    expect(await setting.waitForExit()).toBe(0);
    expect(setting.rawOutput()).not.toMatch(/\u001b\[\?100[06][hl]/);
  });
});
