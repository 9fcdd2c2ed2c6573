/** The stats screen: its pure reducer (scroll, period, help, leaving) and the component in the fake terminal. */
import { describe, expect, it } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { StatsScreen } from '../../components/stats/StatsScreen.js';
import { lineText } from '../../src/stats/chart.js';
import {
  chartLinesOf,
  initStatsState,
  type StatsScreenState,
  statsReducer,
  statsTakesKeys,
} from '../../src/stats/screen-state.js';
import { type LoadedSession, type StatsReport, statsOf } from '../../src/store/index.js';
import { readSessionFromBuffer } from '../../src/store/read/read.js';
import { SessionBuilder } from '../helpers/factory.js';
import { ctrl, KEYS, renderInk } from '../helpers/ink.js';

/** Twelve sessions on twelve days, in four projects, each with an abandoned branch. */
function report(): StatsReport {
  const sessions: LoadedSession[] = [];
  for (let i = 0; i < 12; i++) {
    const b = new SessionBuilder({
      id: `0000000${i.toString(16)}-0000-7000-8000-000000000000`,
      cwd: `/home/dev/project-${i % 4}`,
      startMs: new Date(2026, 0, 1 + i, 9).getTime(),
    });
    const root = b.user(`task ${i}`);
    b.assistant('try', { tokens: 100 * (i + 1), cost: 0.1 * (i + 1) });
    b.leaf = root;
    b.assistant('again', { tokens: 50, cost: 0.05 });
    const read = readSessionFromBuffer(`/s/${i}.jsonl`, Buffer.from(b.text()));
    if (!read.ok) throw new Error(read.message);
    sessions.push(read);
  }
  return statsOf(sessions, {}, '/s');
}

const key = (state: StatsScreenState, name: string): StatsScreenState => statsReducer(state, { type: 'key', name });

describe('stats screen reducer', () => {
  const loaded = (): StatsScreenState =>
    statsReducer(initStatsState({ columns: 80, viewLines: 10 }), { type: 'loaded', report: report() });

  it('scrolls within the chart lines, a page at a time, to the ends', () => {
    let state = loaded();
    const count = chartLinesOf(state).length;
    expect(count).toBeGreaterThan(30);
    expect(key(state, 'up').offset).toBe(0);
    state = key(state, 'down');
    expect(state.offset).toBe(1);
    expect(key(state, 'pagedown').offset).toBe(10);
    expect(key(state, 'end').offset).toBe(count - 10);
    expect(key(key(state, 'end'), 'down').offset).toBe(count - 10);
    expect(key(key(state, 'G'), 'g').offset).toBe(0);
  });

  it('Tab cycles day → week → month (Shift+Tab back), keeping the offset in range', () => {
    let state = key(loaded(), 'end');
    state = key(state, 'tab');
    expect(state.by).toBe('week');
    expect(state.offset).toBeLessThanOrEqual(chartLinesOf(state).length - 10);
    expect(chartLinesOf(state).map(lineText)).toContain('Per week (3 weeks, peak $5.95 on 2026-W02)');
    expect(key(key(state, 'tab'), 'tab').by).toBe('day');
    expect(key(loaded(), 'shift+tab').by).toBe('month');
  });

  it('a resize re-lays out at the new width and keeps the offset in range', () => {
    const state = statsReducer(key(loaded(), 'end'), { type: 'resize', columns: 40, viewLines: 50 });
    expect(state.offset).toBe(Math.max(0, chartLinesOf(state).length - 50));
    expect(Math.max(...chartLinesOf(state).map((l) => lineText(l).length))).toBeLessThanOrEqual(40);
  });

  it('? opens the help and only its keys close it; Esc/q leave; Ctrl+C quits; then no more keys', () => {
    const help = key(loaded(), '?');
    expect(help.mode).toBe('help');
    expect(key(help, 'down')).toBe(help);
    expect(key(help, 'q').mode).toBe('view');
    for (const name of ['escape', 'q']) {
      const left = key(loaded(), name);
      expect(left.leaving).toBe('back');
      expect(statsTakesKeys(left)).toBe(false);
      expect(key(left, 'down')).toBe(left);
    }
    expect(key(help, 'ctrl+c').leaving).toBe('quit');
    // Before the report is read there is nothing to scroll, but Esc works.
    const loading = initStatsState({ columns: 80, viewLines: 10 });
    expect(key(loading, 'down')).toBe(loading);
    expect(key(loading, 'escape').leaving).toBe('back');
  });
});

describe('StatsScreen', () => {
  function mount(
    readStats: (paths: readonly string[], searched: string, signal: AbortSignal) => Promise<StatsReport | undefined>,
    size = { columns: 80, rows: 20 },
  ) {
    const result = { backs: 0, exits: [] as unknown[] };
    const app = renderInk(
      <InputRouter>
        <StatsScreen
          paths={['/s/a.jsonl', '/s/b.jsonl']}
          scopeTitle="all projects"
          searched="/s"
          readStats={readStats}
          onBack={() => result.backs++}
          onExit={(r) => result.exits.push(r)}
        />
      </InputRouter>,
      size,
    );
    return { app, result };
  }

  it('draws the charts of the scope, scrolls, switches period, and Esc goes back', async () => {
    const { app, result } = mount(async () => report());
    const first = await app.waitFor('Per day (12 days');
    // The title counts the sessions the report read, as the body does.
    expect(first).toContain('Usage stats · all projects · 12 sessions · lines 1–');
    expect(first).toContain('in 12 sessions');
    expect(first).toMatch(/2026-01-01 [▁▂▃▄▅▆▇█]{12} 2026-01-12/);
    expect(first).toMatch(/2026-01-12 +█+ +\$1\.25/);
    expect(first).toContain('↑↓ scroll');
    await app.press(KEYS.pageDown);
    await app.waitFor(/lines 17–/);
    await app.press(KEYS.home, KEYS.tab);
    await app.waitFor('Per week (3 weeks');
    await app.press(KEYS.escape);
    // A lone Esc counts once the tokenizer's ESC timeout has passed.
    await app.waitFor(() => result.backs === 1);
  });

  it('says when nothing was spent, and when reading fails; Ctrl+C quits with 130', async () => {
    const empty = mount(async () => statsOf([], {}, '/s'));
    await empty.app.waitFor('No usage recorded in this range.');
    const failing = mount(() => Promise.reject(new Error('EACCES: \u001b[31mdenied')));
    await failing.app.waitFor('Cannot read the usage: EACCES: ␛[31mdenied');
    await failing.app.press(ctrl('c'));
    await failing.app.settle();
    expect(failing.result.exits).toEqual([{ kind: 'quit', code: 130 }]);
  });

  it('Esc while the files are read leaves at once and stops the reading', async () => {
    let signal: AbortSignal | undefined;
    const { app, result } = mount((_paths, _searched, s) => {
      signal = s;
      return new Promise(() => {});
    });
    await app.waitFor('Reading 2 sessions…');
    await app.settle();
    await app.press(KEYS.escape);
    await app.waitFor(() => result.backs === 1);
    app.unmount();
    expect(signal?.aborted).toBe(true);
  });

  it('? shows the keys from the keymap', async () => {
    const { app } = mount(async () => report());
    await app.waitFor('Per day');
    await app.press('?');
    const help = await app.waitFor('Usage stats keys');
    expect(help).toContain('Timeline per day → week → month');
    expect(help).toContain('Back to the session list');
  });
});
