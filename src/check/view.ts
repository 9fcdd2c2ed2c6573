/**
 * The check view's lines (pure), laid out for one width: the audit of the picker's scope as text,
 * grouped by file. Files with errors come first, then those with warnings, then the rest, each
 * group largest first; each file is its session's title (the name a person knows it by), its path
 * cut from the middle so the file name shows, its health and each problem (where, what pi 1.6.0
 * does, what to do), the long parts wrapped under their label rather than cut at the edge.
 */
import { formatBytes, plural } from '../format.js';
import { type CheckReport, type FileCheck, SLOW_FOR_PI_BYTES } from '../store/index.js';
import { elidePathMiddle } from '../text/elide-path.js';
import { displayWidth, sanitizeInline, truncateToWidth, wrapToWidth } from '../text/terminal-text.js';
import { healthLines, problemLines } from './report-lines.js';

/** Cells the screen puts before every line (the `› ` cursor mark or its blank). */
export const CHECK_MARK_WIDTH = 2;

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

/**
 * `text` in lines of at most `width` cells; continuation lines start under the text after its
 * label (`    what to do: `), so wrapped advice reads as one paragraph.
 */
export function wrapUnderLabel(text: string, width: number): string[] {
  const label = /^ *(?:(?:line \d+|file): (?:error|warning): |pi 1\.6\.0 |what to do: |largest: )?/.exec(text)![0];
  const hang = displayWidth(label) <= width / 2 ? label.length : /^ */.exec(text)![0].length;
  const wrapped = wrapToWidth(' '.repeat(hang) + text.slice(hang), width);
  return [text.slice(0, hang) + wrapped[0]!.slice(hang), ...wrapped.slice(1)];
}

/** The file's heading: its title (cut to fit) and its problem count, which always shows. */
function headingOf(file: FileCheck, width: number): string {
  const count = file.problems.length > 0 ? ` · ${plural(file.problems.length, 'problem')}` : '';
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  const title = sanitizeInline(file.title === null ? name : file.title || '(no title)');
  return truncateToWidth(title, Math.max(1, width - displayWidth(count))) + count;
}

/** `width`: the cells each line may take (the screen's columns less CHECK_MARK_WIDTH). */
export function checkView(report: CheckReport, width = Number.POSITIVE_INFINITY): CheckView {
  const lines: CheckLine[] = [];
  const push = (text: string, tone: CheckTone): void => {
    for (const part of wrapUnderLabel(text, width)) lines.push({ text: part, tone });
  };
  push(summaryLine(report), 'heading');
  if (report.dirProblem) push(sanitizeInline(report.dirProblem), 'error');
  const slow = report.files.filter((f) => (f.health?.size ?? 0) >= SLOW_FOR_PI_BYTES).length;
  if (slow > 0)
    push(
      `${plural(slow, 'file')} large enough to make pi slow (over ${formatBytes(SLOW_FOR_PI_BYTES)}: pi loads whole files); Alt+S in the list slims one`,
      'warning',
    );
  const files: CheckFileBlock[] = [];
  const ordered = [...report.files].sort(
    (a, b) => rank(a) - rank(b) || (b.health?.size ?? 0) - (a.health?.size ?? 0) || a.path.localeCompare(b.path),
  );
  for (const file of ordered) {
    lines.push({ text: '', tone: 'plain' });
    const first = lines.length;
    lines.push({ text: headingOf(file, width), tone: 'file' });
    lines.push({ text: `  ${elidePathMiddle(sanitizeInline(file.path), width - 2)}`, tone: 'dim' });
    for (const text of healthLines(file, { largestOnOneLine: true })) push(text, 'dim');
    for (const p of file.problems) {
      const [where, pi, fix] = problemLines(p);
      push(where, p.severity);
      push(pi, 'dim');
      push(fix, 'plain');
    }
    files.push({ path: file.path, first, last: lines.length - 1, openable: file.health !== null });
  }
  return { lines, files };
}
