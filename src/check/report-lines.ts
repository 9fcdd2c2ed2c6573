/**
 * How one audited file reads as text (session text sanitised), shared by `pi-sessions check` and
 * the picker's check view: a problem in three lines (where and what, what pi 1.6.0 does with it,
 * what to do), a session's health in a line or two, and a secret found (masked) in one.
 */
import { formatBytes, plural } from '../format.js';
import { type CheckProblem, type FileCheck, type SecretFinding, SLOW_FOR_PI_BYTES } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';

export function sharePercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** Where and what, what pi does, what can be done. */
export function problemLines(p: CheckProblem): [where: string, pi: string, fix: string] {
  return [
    `  ${p.line > 0 ? `line ${p.line}` : 'file'}: ${p.severity}: ${sanitizeInline(p.message)} [${p.kind}]`,
    `    pi 1.6.0 ${p.pi}`,
    `    what to do: ${p.fix}`,
  ];
}

/** Size, entries, compactions and tool-output share; then the largest entries. */
export function healthLines(file: FileCheck, options: { largestOnOneLine?: boolean } = {}): string[] {
  const h = file.health;
  if (!h) return [];
  const slow = h.size >= SLOW_FOR_PI_BYTES ? ' · large enough to make pi slow (it loads whole files)' : '';
  const head = `  ${formatBytes(h.size)}, ${plural(h.entries, 'entry', 'entries')}, ${plural(h.compactions, 'compaction')}, ${sharePercent(h.toolOutputShare)} tool output`;
  const largest = h.largestEntries.map(
    (e) => `line ${e.line}, ${sanitizeInline(e.type)} ${sanitizeInline(e.id)}, ${formatBytes(e.bytes)}`,
  );
  if (options.largestOnOneLine)
    return [`${head}${slow}`, ...(largest.length > 0 ? [`  largest: ${largest.join(' · ')}`] : [])];
  return [head, ...largest.map((l) => `  largest: ${l}`)];
}

/** `  line 12  entry 1a2b3c4d  GITHUB_TOKEN  ghp_************ (40 characters)` */
export function findingLine(finding: SecretFinding): string {
  const where = finding.line > 0 ? `line ${finding.line}` : 'a label';
  return `  ${where}  entry ${sanitizeInline(finding.entryId)}  ${sanitizeInline(finding.kind)}  ${sanitizeInline(finding.masked)}`;
}
