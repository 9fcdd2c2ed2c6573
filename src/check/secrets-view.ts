/**
 * The check view's secrets filter (pure): only the sessions the secret scan found something in,
 * most findings first, each named by its session's title (from the audit, when it has arrived)
 * above its path, then each finding: line, entry, kind and the secret masked, as
 * `pi-sessions check --secrets` prints them.
 */
import { plural } from '../format.js';
import type { CheckReport, FileSecrets, SecretReport } from '../store/index.js';
import { elidePathMiddle } from '../text/elide-path.js';
import { displayWidth, sanitizeInline, truncateToWidth } from '../text/terminal-text.js';
import { findingLine } from './report-lines.js';
import { type CheckFileBlock, type CheckLine, type CheckView, wrapUnderLabel } from './view.js';

export function secretsSummaryLine(report: SecretReport): string {
  const count = report.files.reduce((n, f) => n + f.findings.length, 0);
  const withSecrets = report.files.filter((f) => f.findings.length > 0).length;
  const where = `${plural(report.files.length, 'file')} in ${sanitizeInline(report.searched)}`;
  return count === 0
    ? `No secrets in ${where}`
    : `${plural(count, 'secret')} in ${withSecrets} of ${where} (masked; pi-sessions redact <session> removes them)`;
}

function headingOf(file: FileSecrets, title: string | null | undefined, width: number): string {
  const count = ` · ${plural(file.findings.length, 'secret')}`;
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  const shown = sanitizeInline(title === null || title === undefined ? name : title || '(no title)');
  return truncateToWidth(shown, Math.max(1, width - displayWidth(count))) + count;
}

/** `width`: the cells each line may take (the screen's columns less CHECK_MARK_WIDTH). */
export function secretsView(
  report: SecretReport,
  audit: CheckReport | undefined,
  width = Number.POSITIVE_INFINITY,
): CheckView {
  const lines: CheckLine[] = [];
  const push = (text: string, tone: CheckLine['tone']): void => {
    for (const part of wrapUnderLabel(text, width)) lines.push({ text: part, tone });
  };
  push(secretsSummaryLine(report), 'heading');
  if (report.dirProblem) push(sanitizeInline(report.dirProblem), 'error');
  const titles = new Map(audit?.files.map((f) => [f.path, f.title]));
  const files: CheckFileBlock[] = [];
  const shown = report.files
    .filter((f) => f.findings.length > 0)
    .sort((a, b) => b.findings.length - a.findings.length || a.path.localeCompare(b.path));
  for (const file of shown) {
    lines.push({ text: '', tone: 'plain' });
    const first = lines.length;
    lines.push({ text: headingOf(file, titles.get(file.path), width), tone: 'file' });
    lines.push({ text: `  ${elidePathMiddle(sanitizeInline(file.path), width - 2)}`, tone: 'dim' });
    for (const finding of file.findings) push(findingLine(finding), 'error');
    files.push({ path: file.path, first, last: lines.length - 1, openable: true });
  }
  return { lines, files };
}
