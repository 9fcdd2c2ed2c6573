/**
 * The labels view's filter: a label row is shown when every whitespace-separated token of the
 * filter (case-insensitive) is found in its label, its entry's text, its session's title or cwd.
 */
import type { LabelRow } from './rows.js';

export function filterTokens(filter: string): string[] {
  return filter
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '');
}

/** The text a row is filtered on, lower-cased once per row. */
export function rowHaystack(row: LabelRow): string {
  return `${row.label}\n${row.text ?? ''}\n${row.session.title}\n${row.session.cwd}`.toLowerCase();
}

/** Indices of the rows matching every token, in row order. */
export function filterRows(haystacks: readonly string[], filter: string): number[] {
  const tokens = filterTokens(filter);
  const shown: number[] = [];
  for (let i = 0; i < haystacks.length; i++) if (tokens.every((t) => haystacks[i]!.includes(t))) shown.push(i);
  return shown;
}
