/**
 * `pi-sessions check [<session> | --all] [--json]`: the store audit (src/store/check/check.ts) as text
 * or JSON. Exit 0 when nothing was found, 1 when a problem was (or the folder cannot be read).
 * Human output goes through `sanitizeInline`: paths, ids and messages come from session data.
 */

import { healthLines, problemLines, sharePercent } from '../check/report-lines.js';
import { formatBytes, plural } from '../format.js';
import { type CheckReport, checkFile, checkStore, type Locations, resolveSessionArg } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';
import { jsonOutput } from './json.js';

export function checkJson(report: CheckReport): Record<string, unknown> {
  const problems = report.files.reduce((n, f) => n + f.problems.length, 0);
  return {
    searched: report.searched,
    fileCount: report.files.length,
    problemCount: problems,
    filesWithProblems: report.files.filter((f) => f.problems.length > 0).length,
    files: report.files.map((f) => ({ path: f.path, sessionId: f.sessionId, problems: f.problems, health: f.health })),
    pathSuggestions: report.pathSuggestions ?? [],
  };
}

const LARGEST_FILES = 3;

/** A path as one shell word, safe to show and to paste. */
function shellWord(path: string): string {
  const shown = sanitizeInline(path);
  return /^[\w@%+=:,./-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
}

/** The report as lines a person reads (all session text sanitised). */
export function formatCheckReport(report: CheckReport, single: boolean): string[] {
  const lines: string[] = [];
  for (const file of report.files) {
    if (file.problems.length === 0 && !single) continue;
    lines.push(sanitizeInline(file.path));
    for (const p of file.problems) lines.push(...problemLines(p));
    if (single && file.health) lines.push(...healthLines(file));
  }
  const problems = report.files.reduce((n, f) => n + f.problems.length, 0);
  const withProblems = report.files.filter((f) => f.problems.length > 0).length;
  if (!single) {
    const largest = report.files
      .filter((f) => f.health)
      .sort((a, b) => b.health!.size - a.health!.size)
      .slice(0, LARGEST_FILES);
    if (largest.length > 0) {
      lines.push('Largest sessions:');
      for (const f of largest)
        lines.push(
          `  ${formatBytes(f.health!.size)}  ${sharePercent(f.health!.toolOutputShare)} tool output, ${plural(f.health!.compactions, 'compaction')}  ${sanitizeInline(f.path)}`,
        );
    }
  }
  for (const s of report.pathSuggestions ?? []) {
    lines.push(
      `Paths from another machine: ${plural(s.sessions, 'session')} recorded under ${sanitizeInline(s.from)}, which is missing here (${sanitizeInline(s.example.cwd)} is ${sanitizeInline(s.example.mapped)} here?)`,
    );
    lines.push(`  to map them: pi-sessions map-path ${shellWord(s.from)} ${shellWord(s.to)}`);
  }
  const total = report.files.reduce((n, f) => n + (f.health?.size ?? 0), 0);
  lines.push(
    problems === 0
      ? `No problems in ${plural(report.files.length, 'file')} (${formatBytes(total)}) in ${sanitizeInline(report.searched)}.`
      : `${plural(problems, 'problem')} in ${withProblems} of ${plural(report.files.length, 'file')} (${formatBytes(total)}) in ${sanitizeInline(report.searched)}.`,
  );
  return lines;
}

export async function checkCommand(
  locations: Locations,
  options: { session?: string; all: boolean; json: boolean },
  io: Output,
): Promise<CommandResult> {
  let report: CheckReport;
  if (options.session !== undefined) {
    const path = await resolveSessionArg(options.session, locations);
    report = { searched: path, files: [checkFile(path)] };
  } else {
    report = checkStore(locations, options.all ? 'all' : 'cwd');
    if (report.dirProblem) {
      io.err(`pi-sessions: ${sanitizeInline(report.dirProblem)}`);
      return { code: 1 };
    }
  }
  if (options.json) io.out(jsonOutput(checkJson(report)));
  else for (const line of formatCheckReport(report, options.session !== undefined)) io.out(line);
  const withProblems = report.files.filter((f) => f.problems.length > 0).length;
  if (withProblems === 0) return { code: 0 };
  // Exit 1 says "problems found"; the one stderr line says so to a script that only reads stderr.
  io.err(`pi-sessions: check found problems in ${plural(withProblems, 'file')}`);
  return { code: 1 };
}
