/**
 * `pi-sessions labels`: every label of every session in scope, one bookmark list across sessions.
 * The rows are labels/rows.ts's (the picker's labels view shows the same). Newest label first;
 * labels without a readable time last, in session order.
 */
import { plural } from '../format.js';

export type { LabelRow } from '../labels/rows.js';

import { FORK_MARK, type LabelRow, labelRowsOf, sessionsWithLabels, sortLabelRows } from '../labels/rows.js';
import { labelTimeColumn } from '../labels/time-column.js';
import type { ListScope, Locations } from '../store/index.js';
import { displayWidth, padEndToWidth, sanitizeInline, truncateToWidth } from '../text/terminal-text.js';
import { type CommandResult, type Output, withListing } from './commands.js';
import { jsonOutput } from './json.js';

/** The table: time, label, session id and title, the entry's text; every cell one sanitised line. */
export function formatLabelTable(rows: readonly LabelRow[], options: { nowMs: number; columns?: number }): string[] {
  const times = labelTimeColumn(
    rows.map((r) => r.time),
    options.nowMs,
  );
  const cells = rows.map((r) => ({
    time: times.format(r.time).trimEnd(),
    label: truncateToWidth(sanitizeInline(r.label, { newline: 'space' }), 30),
    id: truncateToWidth(sanitizeInline(r.session.id), 8, ''),
    // A fork's copy of its parent's label: marked, so the two rows can be told apart.
    title: truncateToWidth(
      `${r.copiedFrom === null ? '' : `${FORK_MARK} `}${sanitizeInline(r.session.title, { newline: 'space' })}`,
      30,
    ),
    text: r.text === null ? '(entry missing)' : sanitizeInline(r.text, { newline: 'space' }),
  }));
  const head = { time: 'TIME', label: 'LABEL', id: 'SESSION', title: 'TITLE', text: 'TEXT' };
  const width = (key: keyof typeof head): number =>
    Math.max(displayWidth(head[key]), ...cells.map((c) => displayWidth(c[key])));
  const w = { time: width('time'), label: width('label'), id: width('id'), title: width('title') };
  const line = (c: typeof head): string => {
    const full = `${padEndToWidth(c.time, w.time)}  ${padEndToWidth(c.label, w.label)}  ${padEndToWidth(c.id, w.id)}  ${padEndToWidth(c.title, w.title)}  ${c.text}`;
    return options.columns ? truncateToWidth(full, Math.max(options.columns - 1, 20)) : full;
  };
  return [line(head), ...cells.map(line)];
}

export async function labelsCommand(
  locations: Locations,
  options: { scope: ListScope; json: boolean; nowMs: number; cache?: boolean },
  io: Output,
): Promise<CommandResult> {
  return withListing(locations, options, io, (result) => {
    const rows: LabelRow[] = [];
    let failed = 0;
    // The listing resolves labels with the same rule: a session it lists without any has none.
    for (const info of sessionsWithLabels(result.sessions)) {
      const got = labelRowsOf(info);
      if ('problem' in got) {
        failed++;
        io.err(`pi-sessions: ${sanitizeInline(got.problem)}`);
      } else rows.push(...got);
    }
    sortLabelRows(rows);
    if (options.json) io.out(jsonOutput({ searched: result.searched, labels: rows }));
    else if (rows.length === 0)
      io.out(
        `No labels in ${sanitizeInline(result.searched)}.${options.scope === 'cwd' ? ' Try --all for every project.' : ''}`,
      );
    else {
      for (const line of formatLabelTable(rows, {
        nowMs: options.nowMs,
        ...(io.columns ? { columns: io.columns } : {}),
      }))
        io.out(line);
      const sessions = new Set(rows.map((r) => r.session.path)).size;
      io.out(`${plural(rows.length, 'label')} in ${plural(sessions, 'session')} in ${sanitizeInline(result.searched)}`);
    }
    return { code: failed > 0 ? 1 : 0 };
  });
}
