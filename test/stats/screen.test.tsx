/** The stats screen: its pure reducer (scroll, period, selected rows, help, leaving) and the component in the fake terminal. */

import { describe, expect, it } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { StatsScreen } from '../../components/stats/StatsScreen.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import { lineText } from '../../src/stats/chart.js';
import { statsReducer } from '../../src/stats/reducer.js';
import type { RowTarget } from '../../src/stats/report-lines.js';
import {
  chartLinesOf,
  chartViewOf,
  initStatsState,
  resumeStatsState,
  type StatsScreenState,
  selectedLine,
  statsTakesKeys,
} from '../../src/stats/screen-state.js';
import { type StatsReport, statsOf } from '../../src/store/index.js';
import { ctrl, KEYS, renderInk } from '../helpers/ink.js';
import { report } from './make-report.js';

const key = (state: StatsScreenState, name: KeyName): StatsScreenState => statsReducer(state, { type: 'key', name });

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
    for (const name of ['escape', 'q'] as const) {
      const left = key(loaded(), name);
      expect(left.leaving).toEqual({ kind: 'back' });
      expect(statsTakesKeys(left)).toBe(false);
      expect(key(left, 'down')).toBe(left);
    }
    expect(key(help, 'ctrl+c').leaving).toEqual({ kind: 'quit' });
    // Before the report is read there is nothing to scroll, but Esc works.
    const loading = initStatsState({ columns: 80, viewLines: 10 });
    expect(key(loading, 'down')).toBe(loading);
    expect(key(loading, 'escape').leaving).toEqual({ kind: 'back' });
  });
});

describe('stats screen: session and branch rows', () => {
  const loaded = (): StatsScreenState =>
    statsReducer(initStatsState({ columns: 80, viewLines: 10 }), { type: 'loaded', report: report() });
  /** The state scrolled so that `heading` is the top line, nothing selected. */
  const scrolledTo = (heading: string): StatsScreenState => {
    const state = loaded();
    const at = chartLinesOf(state).findIndex((l) => lineText(l).startsWith(heading));
    expect(at).toBeGreaterThan(0);
    return { ...state, offset: at };
  };
  const rowText = (state: StatsScreenState): string => lineText(chartLinesOf(state)[selectedLine(state)!]!);

  it('Down scrolls until a session row is on screen, then selects it', () => {
    let state = loaded();
    const first = chartViewOf(state).targets.findIndex((t) => t !== undefined);
    for (let i = 0; i < 200 && state.selected === undefined; i++) state = key(state, 'down');
    // The first row is selected the moment it enters the bottom line, not scrolled past.
    expect(state.offset).toBe(first - 9);
    expect(selectedLine(state)).toBe(first);
    expect(state.selected).toEqual({ path: '/s/11.jsonl' });
  });

  it('Down steps through the session rows on screen, by cost; Enter opens the selected session', () => {
    let state = scrolledTo('Per session');
    state = key(state, 'down');
    expect(state.offset).toBe(chartLinesOf(state).findIndex((l) => lineText(l).startsWith('Per session')));
    expect(state.selected).toEqual({ path: '/s/11.jsonl' });
    expect(rowText(state)).toMatch(/^task 11 .*\$1\.25/);
    state = key(key(state, 'down'), 'j');
    expect(state.selected).toEqual({ path: '/s/9.jsonl' });
    const open = key(state, 'return');
    expect(open.leaving).toEqual({ kind: 'openTree', target: { path: '/s/9.jsonl' } });
    expect(statsTakesKeys(open)).toBe(false);
    // Back from the tree: the same place, the same row, taking keys again.
    const resumed = resumeStatsState(open);
    expect(resumed.leaving).toBeUndefined();
    expect({ offset: resumed.offset, selected: resumed.selected }).toEqual({
      offset: state.offset,
      selected: state.selected,
    });
    expect(key(resumed, 'up').selected).toEqual({ path: '/s/10.jsonl' });
  });

  it('past the last row on screen Down scrolls a line and the next row comes into reach; Up the same way back', () => {
    let state = scrolledTo('Per session');
    // The heading and 9 session rows on screen: the 9th is the last to select without scrolling.
    for (let i = 0; i < 9; i++) state = key(state, 'down');
    const top = state.offset;
    expect(state.selected).toEqual({ path: '/s/3.jsonl' });
    state = key(state, 'down');
    expect({ offset: state.offset, selected: state.selected }).toEqual({
      offset: top + 1,
      selected: { path: '/s/3.jsonl' },
    });
    state = key(state, 'down');
    expect({ offset: state.offset, selected: state.selected }).toEqual({
      offset: top + 1,
      selected: { path: '/s/2.jsonl' },
    });
    // Up from the first row on screen: nothing above to select, so the page scrolls; the row stays selected.
    for (let i = 0; i < 9; i++) state = key(state, 'up');
    expect({ offset: state.offset, selected: state.selected }).toEqual({
      offset: top + 1,
      selected: { path: '/s/11.jsonl' },
    });
    state = key(state, 'up');
    expect({ offset: state.offset, selected: state.selected }).toEqual({
      offset: top,
      selected: { path: '/s/11.jsonl' },
    });
    // Scrolled on up, the selected row leaves the screen at the bottom edge: then nothing is selected.
    for (let i = 0; i < 9; i++) state = key(state, 'up');
    expect(state.offset).toBe(top - 9);
    expect(state.selected).toBeUndefined();
  });

  it('a branch row opens its session at the branch’s leaf', () => {
    const state = key(scrolledTo('Abandoned branches'), 'down');
    const { report: r } = state.load as { report: StatsReport };
    const eleven = r.bySession.find((s) => s.path === '/s/11.jsonl')!;
    const abandoned = eleven.branches.find((b) => !b.active)!;
    expect(state.selected).toEqual({ path: '/s/11.jsonl', leafId: abandoned.leafId });
    // A branch without a prompt of its own is named by its leaf's id, then its session.
    expect(rowText(state)).toMatch(/^at \S+ · task 11 /);
    expect(key(state, 'return').leaving).toEqual({
      kind: 'openTree',
      target: { path: '/s/11.jsonl', leafId: abandoned.leafId },
    });
  });

  it('only rows on screen are selected: a page away or a period away, Enter does nothing; a resize keeps the row', () => {
    const state = key(scrolledTo('Per session'), 'down');
    expect(key(loaded(), 'return')).toEqual(loaded());
    const paged = key(state, 'pagedown');
    expect(paged.selected).toBeUndefined();
    expect(key(paged, 'return')).toBe(paged);
    const back = key(state, 'pageup');
    expect(back.selected).toBeUndefined();
    // Per week there are 3 bars, not 12: the sessions move up 9 lines, past the top of the screen.
    expect(key(state, 'tab').selected).toBeUndefined();
    // A taller screen keeps the row, found by what it names.
    const taller = statsReducer(state, { type: 'resize', columns: 80, viewLines: 20 });
    expect(taller.selected).toEqual({ path: '/s/11.jsonl' });
    expect(selectedLine(taller)).toBe(selectedLine(state));
    // Every target a row names is a session of the report.
    const paths = new Set(report().bySession.map((s) => s.path));
    const targets = chartViewOf(state).targets.filter((t): t is RowTarget => t !== undefined);
    expect(targets).toHaveLength(20);
    expect(targets.every((t) => paths.has(t.path))).toBe(true);
  });
});

describe('StatsScreen', () => {
  function mount(
    readStats: (paths: readonly string[], searched: string, signal: AbortSignal) => Promise<StatsReport | undefined>,
    size = { columns: 80, rows: 20 },
    initialState?: StatsScreenState,
  ) {
    const result = { backs: 0, exits: [] as unknown[], opened: [] as { target: RowTarget; state: StatsScreenState }[] };
    const app = renderInk(
      <InputRouter>
        <StatsScreen
          paths={['/s/a.jsonl', '/s/b.jsonl']}
          scopeTitle="all projects"
          searched="/s"
          readStats={readStats}
          {...(initialState ? { initialState } : {})}
          onBack={() => result.backs++}
          onOpenTree={(target, state) => result.opened.push({ target, state })}
          onExit={(r) => result.exits.push(r)}
        />
      </InputRouter>,
      size,
    );
    return { app, result };
  }

  it('End, Up selects the last branch row on screen; Enter hands it out; mounted again with that state, the same screen without reading', async () => {
    const { app, result } = mount(async () => report());
    await app.waitFor('Per day (12 days');
    expect(app.lastFrame()).toContain('Enter open tree');
    await app.press(KEYS.end);
    await app.waitFor(/lines \d+–(\d+) of \1/);
    await app.press(KEYS.up);
    await app.press(KEYS.enter);
    await app.waitFor(() => result.opened.length === 1);
    const { target, state } = result.opened[0]!;
    const r = report();
    const cheapest = r.bySession.find((s) => s.path === target.path)!;
    expect(target.leafId).toBe(cheapest.branches.find((b) => !b.active)!.leafId);
    const frame = app.lastFrame();
    app.unmount();
    let reads = 0;
    const again = mount(
      async () => {
        reads++;
        return report();
      },
      undefined,
      state,
    );
    const same = await again.app.waitFor((f) => f.includes('Abandoned branches') || f.includes(' · lines '));
    expect(same).toBe(frame);
    expect(reads).toBe(0);
    // It takes keys again: Enter opens the same row.
    await again.app.press(KEYS.enter);
    await again.app.waitFor(() => again.result.opened.length === 1);
    expect(again.result.opened[0]!.target).toEqual(target);
  });

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
