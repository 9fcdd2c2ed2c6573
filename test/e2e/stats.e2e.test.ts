/**
 * Usage charts in a real terminal: `pi-sessions stats` drawn at the pty's width (bars and a
 * sparkline on screen, colour on a terminal, not one escape code under NO_COLOR), and the
 * picker's `$` stats screen, which Esc leaves for the picker as it was, and whose session and
 * branch rows open their tree (Esc from there: the stats as they were).
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, writeSession } from './harness.js';

function corpusHome(): TestHome {
  const home = makeHome();
  cpSync(join(FIXTURES, 'pi-written', 'sessions'), home.sessionsRoot, { recursive: true });
  return home;
}

const SPARK = /\d{4}-\d\d-\d\d [ ▁▂▃▄▅▆▇█]*█[ ▁▂▃▄▅▆▇█]* 2026-02-12/;
const DAY_BAR = /2026-02-05 {2}█{10,}[▏▎▍▌▋▊▉]? +\$1\.99 +1\.4M/;

describe('usage charts in a terminal', { timeout: E2E_TEST_MS }, () => {
  it('pi-sessions stats draws bars and a sparkline as wide as the terminal, in colour', async () => {
    const home = corpusHome();
    const pty = startApp(home, ['stats', '--all'], { cols: 72, rows: 200, env: { TZ: 'UTC' } });
    expect(await pty.waitForExit()).toBe(0);
    const screen = pty.screen();
    expect(screen).toMatch(SPARK);
    expect(screen).toMatch(DAY_BAR);
    expect(screen).toContain('Abandoned branches (17: $0.44, 293k, 20% of the total)');
    const lines = screen.split('\n');
    // A line as wide as the pty, none wrapped: a wrapped line would start with a bar or a figure.
    expect(Math.max(...lines.map((l) => [...l].length))).toBe(72);
    expect(lines.filter((l) => /^[█▏▎▍▌▋▊▉]|^ *\$[\d.]+ +[\d.]+[kM]?$/.test(l))).toEqual([]);
    expect(pty.rawOutput()).toMatch(/\u001b\[36m█/);
  });

  it('NO_COLOR: the same charts without one escape code', async () => {
    const home = corpusHome();
    const pty = startApp(home, ['stats', '--all'], { cols: 72, rows: 200, env: { TZ: 'UTC', NO_COLOR: '1' } });
    expect(await pty.waitForExit()).toBe(0);
    expect(pty.screen()).toMatch(DAY_BAR);
    expect(pty.rawOutput()).not.toContain('\u001b');
  });

  it('$ in the picker opens the stats of its scope; Tab changes the period; Esc returns to the picker as it was', async () => {
    const home = corpusHome();
    const pty = startApp(home, ['--all'], { cols: 100, rows: 40, env: { TZ: 'UTC' } });
    await pty.waitForText('35/35 · all projects');
    const selectedAt = (screen: string): number => screen.split('\n').findIndex((l) => l.startsWith('›'));
    const top = selectedAt(pty.screen());
    await pty.press(PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.down);
    const before = await pty.waitForScreen((screen) => selectedAt(screen) === top + 3, 'the cursor three rows down');
    const selected = before.split('\n')[top + 3]!;
    await pty.press('$');
    const stats = await pty.waitForText(SPARK);
    expect(stats).toMatch(/^Usage stats · all projects · 35 sessions/);
    expect(stats).toMatch(DAY_BAR);
    expect(stats).toContain('↑↓ scroll');
    await pty.press(PTY_KEYS.tab);
    await pty.waitForText(/Per week \(14 weeks, peak \$2\.02 on 2026-W06\)/);
    await pty.press(PTY_KEYS.end);
    await pty.waitForText(/Abandoned branches \(17:/);
    await pty.press(PTY_KEYS.escape);
    // The same scope, list and cursor.
    await pty.waitForScreen(
      (screen) =>
        selectedAt(screen) === top + 3 &&
        screen.split('\n')[top + 3] === selected &&
        screen.includes('35/35 · all projects'),
      'the picker as it was before $',
    );
    expect(
      pty
        .screen()
        .split('\n')
        .slice(0, top + 4),
    ).toEqual(before.split('\n').slice(0, top + 4));
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('the stats screen under NO_COLOR: charts, and no colour sequence in what was drawn', async () => {
    const home = corpusHome();
    const pty = startApp(home, ['--all'], { cols: 100, rows: 40, env: { TZ: 'UTC', NO_COLOR: '1' } });
    await pty.waitForText('35/35 · all projects');
    await pty.press('$');
    await pty.waitForText(DAY_BAR);
    const colours = [...pty.rawOutput().matchAll(/\u001b\[([0-9;]*)m/g)].filter((m) =>
      m[1]!.split(';').some((p) => /^(3\d|4\d|9[0-7]|10[0-7])$/.test(p)),
    );
    expect(colours.map((m) => JSON.stringify(m[0]))).toEqual([]);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  for (const cols of [80, 120])
    it(`$ at ${cols} columns: every day of a 40-day range has its bar; End reaches the first; header and body count alike`, async () => {
      const home = makeHome();
      for (let i = 0; i < 40; i++) {
        const b = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2026, 0, 1 + i, 9) });
        b.user('ok, now also handle the edge cases of the ingestion step');
        b.assistant('ok', { tokens: 1000 + i, cost: 0.01 * (i + 1) });
        writeSession(b, home.projectDir, `2026-01-${i}_s.jsonl`, 30);
      }
      // One session without usage: read and counted, spending nothing.
      const idle = new SessionBuilder({ cwd: home.cwd });
      idle.user('nothing spent');
      writeSession(idle, home.projectDir, 'idle.jsonl', 30);
      const pty = startApp(home, [], { cols, rows: 30, env: { TZ: 'UTC' } });
      await pty.waitForText(/41\/41 · this folder/);
      await pty.press('$');
      const top = await pty.waitForText('Per day (40 days');
      expect(top).toMatch(/Usage stats · this folder · 41 sessions/);
      expect(top).toContain('tokens in 40 of 41 sessions');
      expect(top).toContain('2026-02-09  ');
      // End, several keys in one write too: the oldest day's bar, then the sessions, told apart by date.
      pty.write(PTY_KEYS.pageDown + PTY_KEYS.pageDown);
      await pty.press(PTY_KEYS.end);
      // (Waited for whole: ink writes a frame in several writes, so a screen read mid-frame lacks rows.)
      const bottom = await pty.waitForText(/Per session(.|\n)*01-\d\d 09:00 · ok, now also handle/);
      expect(bottom).toMatch(/lines \d+–(\d+) of \1/);
      await pty.press(PTY_KEYS.home);
      await pty.waitForText('Per day (40 days');
      let seen = pty.screen();
      for (let i = 0; i < 12 && !seen.includes('2026-01-01  '); i++) {
        await pty.press(PTY_KEYS.pageDown);
        seen = await pty.waitForScreen((s) => s !== seen, 'the next page');
      }
      expect(seen).toMatch(/2026-01-01 {2}[█▏▎▍▌▋▊▉]/);
      expect(seen).not.toContain('more days');
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText(/41\/41 · this folder/);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
    });

  /** The row under the cursor (`›` in the first column). */
  const cursorRow = (screen: string): string => screen.split('\n').find((line) => line.startsWith('›')) ?? '';

  /** A session with an abandoned branch (the costlier one) and two plain sessions, in this folder. */
  function branchedHome(): TestHome {
    const home = makeHome();
    const main = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2026, 2, 2, 9) });
    main.user('Refactor the ingestion pipeline');
    const answer = main.assistant('Where should it start?', { tokens: 2000, cost: 0.5 });
    main.user('Try the streaming parser instead');
    main.assistant('Streaming parser done', { tokens: 4000, cost: 0.4 });
    main.leaf = answer;
    main.user('Keep the batch parser');
    main.assistant('Batch parser kept', { tokens: 1000, cost: 0.1 });
    writeSession(main, home.projectDir, '2026-03-02_main.jsonl', 30);
    for (const [day, title, cost] of [
      [3, 'Write the release notes', 0.3],
      [4, 'Rename the config keys', 0.2],
    ] as const) {
      const b = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2026, 2, day, 9) });
      b.user(title);
      b.assistant(`${title}: done`, { tokens: 1500, cost });
      writeSession(b, home.projectDir, `2026-03-0${day}_s.jsonl`, 30);
    }
    return home;
  }

  /** Keys on the selected row: the tree with `leaf` under its cursor; then Esc: the stats screen `back`. */
  async function openAndComeBack(pty: PtySession, keys: string[] | string, leaf: string, back: string): Promise<void> {
    if (typeof keys === 'string') pty.write(keys);
    else await pty.press(...keys);
    const tree = await pty.waitForScreen(
      (s) => s.startsWith('Session Tree') && cursorRow(s).includes(leaf),
      `the tree with the cursor on "${leaf}"`,
    );
    expect(tree).toContain('Refactor the ingestion pipeline');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((s) => s === back, 'the stats as they were');
  }

  for (const cols of [80, 120])
    it(`$ at ${cols} columns: Enter on a branch row opens its tree at the branch's leaf, on a session row at pi's leaf; Esc comes back`, async () => {
      const home = branchedHome();
      const pty = startApp(home, [], { cols, rows: 30, env: { TZ: 'UTC' } });
      await pty.waitForText(/3\/3 · this folder/);
      await pty.press('$');
      await pty.waitForText('Abandoned branches (1:');
      expect(pty.screen()).toContain('Enter open tree');
      // One key at a time: to the bottom, then up to the last row on screen, the abandoned branch.
      await pty.press(PTY_KEYS.end);
      const bottom = await pty.waitForText(/^ {2}Try the streaming parser/m);
      expect(cursorRow(bottom)).toBe('');
      await pty.press(PTY_KEYS.up);
      // The selected row: `›` in the first column (seen under NO_COLOR too) and reverse video.
      const onBranch = await pty.waitForScreen(
        (s) => /^› Try the streaming parser/.test(cursorRow(s)),
        'the branch row selected',
      );
      expect(pty.rawOutput()).toMatch(/\u001b\[7m[^\n]*Try the streaming/);
      expect(onBranch.replace(/^› /m, '  ')).toBe(bottom);
      await openAndComeBack(pty, [PTY_KEYS.enter], 'Streaming parser done', onBranch);
      // In one write: Up three times (the session rows, cheapest to costliest), Enter: the main
      // session, at the leaf pi resumes; back, its row is the selected one.
      const onMain = onBranch.replace(/^› /m, '  ').replace(/^ {2}(Refactor the ingestion pipeline)/m, '› $1');
      await openAndComeBack(pty, PTY_KEYS.up + PTY_KEYS.up + PTY_KEYS.up + PTY_KEYS.enter, 'Batch parser kept', onMain);
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText(/3\/3 · this folder/);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
    });
});
