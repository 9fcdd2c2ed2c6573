/** The usage report as chart lines: width, alignment, hostile names, zero and one value, periods. */

import chalk from 'chalk';
import { describe, expect, it } from 'vitest';
import { lineText } from '../../src/stats/chart.js';
import { paintLines } from '../../src/stats/paint.js';
import { periodSeries, reportLines, reportView } from '../../src/stats/report-lines.js';
import { type LoadedSession, statsOf } from '../../src/store/index.js';
import { readSessionFromBuffer } from '../../src/store/read/read.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { SessionBuilder } from '../helpers/factory.js';

function load(b: SessionBuilder, path: string): LoadedSession {
  const session = readSessionFromBuffer(path, Buffer.from(b.text()));
  if (!session.ok) throw new Error(session.message);
  return session;
}

const HOSTILE = '/home/\u001b[31mred\u001b[0m/\u202etxt.exe/日本語のプロジェクト🙂';

/** Three sessions over three days; the second has an abandoned branch and a hostile cwd and title. */
function sample(): LoadedSession[] {
  const a = new SessionBuilder({
    id: 'aaaaaaaa-0000-7000-8000-000000000001',
    cwd: '/home/dev/webshop',
    startMs: new Date(2026, 0, 5, 10).getTime(),
  });
  a.user('fix the checkout');
  a.assistant('done', { tokens: 1000, cost: 1.5 });
  const b = new SessionBuilder({
    id: 'bbbbbbbb-0000-7000-8000-000000000002',
    cwd: HOSTILE,
    startMs: new Date(2026, 0, 7, 10).getTime(),
  });
  const root = b.user('\u001b]52;c;aGk=\u0007steal the clipboard');
  b.assistant('first try', { tokens: 500, cost: 0.25, model: 'claude-\u001b[2Jopus' });
  b.user('Try a different approach');
  b.assistant('second', { tokens: 300, cost: 0.2 });
  b.leaf = root;
  b.assistant('third', { tokens: 200, cost: 0.1 });
  const c = new SessionBuilder({
    id: 'cccccccc-0000-7000-8000-000000000003',
    cwd: '/home/dev/webshop',
    startMs: new Date(2026, 0, 12, 10).getTime(),
  });
  c.user('tests');
  c.assistant('ok', { tokens: 10_000, cost: 3 });
  return [load(a, '/s/a.jsonl'), load(b, '/s/b.jsonl'), load(c, '/s/c.jsonl')];
}

const text = (columns: number, by: 'day' | 'week' | 'month' = 'day'): string[] =>
  reportLines(statsOf(sample(), {}, '/s'), { columns, by }).map(lineText);

describe('reportLines', () => {
  it('no line is wider than the width, at any width', () => {
    for (const columns of [1, 20, 37, 60, 80, 132, 250]) {
      for (const line of text(columns))
        expect(displayWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(Math.max(20, columns));
    }
  });

  it('hostile names are shown escaped: no control character reaches the lines', () => {
    const all = text(200).join('\n');
    expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(all).toContain('␛[31mred');
    expect(all).toContain('日本語');
    expect(all).toContain('claude-␛[2Jopus');
  });

  it('totals, the timeline, and every section in order', () => {
    const lines = text(100);
    expect(lines[0]).toBe('Usage in /s');
    expect(lines[1]).toBe('$5.05, 12.0k tokens in 3 sessions');
    const headings = lines.filter((l) => /^(Per|Abandoned)/.test(l)).map((l) => l.split(' (')[0]);
    expect(headings).toEqual(['Per day', 'Per project', 'Per model', 'Per session', 'Abandoned branches']);
    expect(lines).toContain('Per day (8 days, peak $3.00 on 2026-01-12)');
    // Days without usage are gaps in the sparkline: 5, 7 and 12 January.
    expect(lines).toContain('2026-01-05 ▄ ▂    █ 2026-01-12');
    // The abandoned branch runs from the first answer to its leaf, below the branch point (the first prompt).
    expect(lines.find((l) => l.startsWith('Abandoned branches'))).toBe(
      'Abandoned branches (1: $0.45, 800, 9% of the total)',
    );
    // It is named by its own first prompt, then its session.
    expect(lines.some((l) => l.startsWith('Try a different approach · ␛]52'))).toBe(true);
  });

  it('the figures of a section end in one column', () => {
    const lines = text(90);
    const start = lines.indexOf('Per project');
    const rows = lines.slice(start + 1, lines.indexOf('', start));
    expect(rows.length).toBe(2);
    expect(new Set(rows.map((r) => displayWidth(r))).size).toBe(1);
    expect(rows[0]).toMatch(/^\/home\/dev\/webshop +█+ +\$4\.50 +11\.0k$/);
  });

  it('says the range it covers', () => {
    const range = { sinceMs: new Date(2026, 0, 6).getTime(), untilMs: new Date(2026, 0, 8, 12, 30).getTime() };
    const lines = reportLines(statsOf(sample(), range, '/s'), { columns: 100, by: 'day', range }).map(lineText);
    expect(lines[0]).toBe('Usage in /s since 2026-01-06 00:00 until 2026-01-08 12:30');
    // Of the sessions read, as the screen's title counts them.
    expect(lines[1]).toBe('$0.55, 1.0k tokens in 1 of 3 sessions');
  });

  it('per week and per month: ISO weeks and months, gaps included', () => {
    expect(periodSeries(statsOf(sample()), 'week').map((p) => p.key)).toEqual(['2026-W02', '2026-W03']);
    expect(periodSeries(statsOf(sample()), 'month').map((p) => p.key)).toEqual(['2026-01']);
    expect(text(80, 'month')).toContain('Per month (1 month, peak $5.05 on 2026-01)');
  });

  it('zero usage: one line saying so; one value: a full bar and a one-character sparkline', () => {
    const empty = new SessionBuilder();
    empty.user('hi');
    expect(
      reportLines(statsOf([load(empty, '/s/e.jsonl')], {}, '/s'), { columns: 80, by: 'day' }).map(lineText),
    ).toEqual(['Usage in /s', 'No usage recorded in this range.']);
    expect(reportLines(statsOf([], {}, '/s'), { columns: 80, by: 'day' }).map(lineText)).toEqual([
      'Usage in /s',
      'No usage recorded in this range.',
    ]);
    const one = new SessionBuilder({ startMs: new Date(2026, 2, 1, 12).getTime() });
    one.user('q');
    one.assistant('a', { tokens: 10, cost: 0.5 });
    const lines = reportLines(statsOf([load(one, '/s/o.jsonl')], {}, '/s'), { columns: 40, by: 'day' }).map(lineText);
    expect(lines).toContain('2026-03-01 █ 2026-03-01');
    expect(lines).toContain(`2026-03-01  ${'█'.repeat(13)}  $0.50      10`);
    expect(lines.some((l) => l.startsWith('Abandoned'))).toBe(false);
  });

  it('bars measure tokens when nothing has a cost', () => {
    const free = new SessionBuilder({ startMs: new Date(2026, 2, 1, 12).getTime() });
    free.user('q');
    free.assistant('a', { tokens: 2500, cost: 0 });
    const lines = reportLines(statsOf([load(free, '/s/f.jsonl')], {}, '/s'), { columns: 40, by: 'day' }).map(lineText);
    expect(lines).toContain('Per day (1 day, peak 2.5k on 2026-03-01)');
    expect(lines).toContain(`2026-03-01  ${'█'.repeat(22)}  2.5k`);
  });
});

describe('paintLines', () => {
  it('no escape code at all without colour; styles with it', () => {
    const lines = reportLines(statsOf(sample(), {}, '/s'), { columns: 80, by: 'day' });
    const level = chalk.level;
    try {
      chalk.level = 1;
      expect(paintLines(lines, false).join('\n')).not.toContain('\u001b');
      const painted = paintLines(lines, true).join('\n');
      expect(painted).toContain('\u001b[36m█');
      expect(painted).toContain('\u001b[1mPer day');
    } finally {
      chalk.level = level;
    }
  });

  it('names the listed sessions gone since the list was drawn, the rest of the report unchanged', () => {
    const report = statsOf(sample(), {}, '/s');
    const gone = `/tmp/${'t'.repeat(100)}/2026-01-05T09-00-00-000Z_gone.jsonl`;
    const plain = reportLines(report, { columns: 80, by: 'day' }).map(lineText);
    const withGone = reportLines({ ...report, gone: [gone] }, { columns: 80, by: 'day' }).map(lineText);
    const said = withGone.filter((l) => l.includes('was deleted or moved since the list was drawn'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/_gone\.jsonl was deleted or moved since the list was drawn$/);
    expect(displayWidth(said[0]!)).toBeLessThanOrEqual(80);
    expect(withGone.filter((l) => !said.includes(l) && l !== '')).toEqual(plain.filter((l) => l !== ''));
  });

  /** `days` sessions, one a day from 2025-09-01, every one titled the same first prompt. */
  function longRange(days: number): LoadedSession[] {
    return Array.from({ length: days }, (_, i) => {
      const b = new SessionBuilder({
        id: `${String(i).padStart(8, '0')}-0000-7000-8000-000000000000`,
        cwd: '/home/dev/data-pipeline',
        startMs: new Date(2025, 8, 1 + i, 9).getTime(),
      });
      b.user('ok, now also handle the edge cases of the ingestion step');
      b.assistant('done', { tokens: 100 + i, cost: 0.01 * (i + 1) });
      return load(b, `/s/${i}.jsonl`);
    });
  }

  it('every period with usage is reachable: all of them on screen, or the latest with "… and N more" and the flag', () => {
    const report = statsOf(longRange(120), {}, '/s');
    const all = reportLines(report, { columns: 80, by: 'day', periods: 'all' }).map(lineText);
    const dayBars = (lines: string[]) => lines.filter((l) => /^20\d\d-\d\d-\d\d {2}/.test(l));
    expect(dayBars(all)).toHaveLength(120);
    expect(dayBars(all)[0]).toMatch(/^2025-12-29 /);
    expect(dayBars(all).at(-1)).toMatch(/^2025-09-01 /);
    // The sparkline cannot hold 120 days at 80 columns: it says so.
    expect(all).toContain('  latest 58 of 120 days drawn above');
    const cli = reportLines(report, { columns: 80, by: 'day', morePeriodsHint: 'see --all-periods' }).map(lineText);
    expect(dayBars(cli)).toHaveLength(10);
    expect(cli).toContain('  … and 110 more days from 2025-09-01 ($61.05, 17.0k): see --all-periods');
  });

  it('sessions with the same title are told apart by their creation date; titles get almost half the width', () => {
    const lines = reportLines(statsOf(longRange(3), {}, '/s'), { columns: 80, by: 'day' }).map(lineText);
    const at = lines.indexOf('Per session');
    const rows = lines.slice(at + 1, at + 4);
    expect(rows.map((l) => l.slice(0, 36))).toEqual([
      '09-03 09:00 · ok, now also handle t…',
      '09-02 09:00 · ok, now also handle t…',
      '09-01 09:00 · ok, now also handle t…',
    ]);
    // One session alone keeps its title, wider than a third of the width.
    const one = reportLines(statsOf(longRange(1), {}, '/s'), { columns: 80, by: 'day' }).map(lineText);
    expect(one[one.indexOf('Per session') + 1]).toMatch(/^ok, now also handle the edge cases … {2}█/);
  });
});

describe('reportView: the session or branch each row names', () => {
  it('marks exactly the session rows and the abandoned-branch rows, each with its own session (and leaf); "… and N more" names none', () => {
    const sessions = sample();
    const report = statsOf(sessions, {}, '/s');
    const view = reportView(report, { columns: 80, by: 'day', top: 2 });
    expect(view.targets).toHaveLength(view.lines.length);
    const named = view.lines.flatMap((line, i) => {
      const target = view.targets[i];
      return target ? [{ text: lineText(line), target }] : [];
    });
    // Top 2 sessions by cost (c: $3, a: $1.50); b's abandoned branch, named by its own prompt.
    const abandoned = report.bySession.find((s) => s.path === '/s/b.jsonl')!.branches.find((b) => !b.active)!;
    expect(named.map((n) => n.target)).toEqual([
      { path: '/s/c.jsonl' },
      { path: '/s/a.jsonl' },
      { path: '/s/b.jsonl', leafId: abandoned.leafId },
    ]);
    expect(named[0]!.text).toMatch(/^tests +█/);
    expect(named[1]!.text).toMatch(/^fix the checkout +█/);
    expect(named[2]!.text).toMatch(/^Try a different approach · /);
    const more = view.lines.findIndex((l) => lineText(l).startsWith('  … and 1 more'));
    expect(more).toBeGreaterThan(0);
    expect(view.targets[more]).toBeUndefined();
    expect(reportLines(report, { columns: 80, by: 'day', top: 2 })).toEqual(view.lines);
  });
});
