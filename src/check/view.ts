/**
 * The check view's lines (pure): the audit of the picker's scope as text, grouped by file. Files
 * with problems come first (errors before warnings), then the rest, largest first; each file is
 * its path, its health and each problem in three lines (where, what pi 1.6.0 does, what to do).
 */
import { formatBytes, plural } from '../format.js';
import { type CheckReport, type FileCheck, SLOW_FOR_PI_BYTES } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { healthLines, problemLines } from './report-lines.js';

export type CheckTone = 'heading' | 'file' | 'error' | 'warning' | 'dim' | 'plain';

export interface CheckLine {
  text: string;
  tone: CheckTone;
}

export interface CheckFileBlock {
  path: string;
  /** Index of its first and last line in `lines`. */
  first: number;
  last: number;
  /** pi can read it as a session: Enter opens its tree. */
  openable: boolean;
}

export interface CheckView {
  lines: CheckLine[];
  files: CheckFileBlock[];
}

function rank(file: FileCheck): number {
  if (file.problems.some((p) => p.severity === 'error')) return 0;
  return file.problems.length > 0 ? 1 : 2;
}

export function summaryLine(report: CheckReport): string {
  const problems = report.files.reduce((n, f) => n + f.problems.length, 0);
  const withProblems = report.files.filter((f) => f.problems.length > 0).length;
  const total = report.files.reduce((n, f) => n + (f.health?.size ?? 0), 0);
  const where = `${plural(report.files.length, 'file')} (${formatBytes(total)}) in ${sanitizeInline(report.searched)}`;
  return problems === 0 ? `No problems in ${where}` : `${plural(problems, 'problem')} in ${withProblems} of ${where}`;
}

export function checkView(report: CheckReport): CheckView {
  const lines: CheckLine[] = [{ text: summaryLine(report), tone: 'heading' }];
  if (report.dirProblem) lines.push({ text: sanitizeInline(report.dirProblem), tone: 'error' });
  const slow = report.files.filter((f) => (f.health?.size ?? 0) >= SLOW_FOR_PI_BYTES).length;
  if (slow > 0)
    lines.push({
      text: `${plural(slow, 'file')} large enough to make pi slow (over ${formatBytes(SLOW_FOR_PI_BYTES)}: pi loads whole files); Ctrl+E in the list slims one`,
      tone: 'warning',
    });
  const files: CheckFileBlock[] = [];
  const ordered = [...report.files].sort(
    (a, b) => rank(a) - rank(b) || (b.health?.size ?? 0) - (a.health?.size ?? 0) || a.path.localeCompare(b.path),
  );
  for (const file of ordered) {
    lines.push({ text: '', tone: 'plain' });
    const first = lines.length;
    const count = file.problems.length > 0 ? ` · ${plural(file.problems.length, 'problem')}` : '';
    lines.push({ text: `${sanitizeInline(file.path)}${count}`, tone: 'file' });
    for (const text of healthLines(file, { largestOnOneLine: true })) lines.push({ text, tone: 'dim' });
    for (const p of file.problems) {
      const [where, pi, fix] = problemLines(p);
      lines.push({ text: where, tone: p.severity }, { text: pi, tone: 'dim' }, { text: fix, tone: 'plain' });
    }
    files.push({ path: file.path, first, last: lines.length - 1, openable: file.health !== null });
  }
  return { lines, files };
}
