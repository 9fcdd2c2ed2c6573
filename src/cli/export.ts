/**
 * `pi-sessions export <session> [--leaf ID | --all-branches] [--format md|html|jsonl] [--out FILE]
 * [--redact | --keep-secrets]`, and `pi-sessions check --secrets`. Before an export the secret scan
 * runs on what would go out: a secret stops it (exit 1, each finding masked) unless `--redact`
 * replaces it or `--keep-secrets` keeps it. Findings never print a secret, only its masked form.
 */

import { scanStoreSecretsCached } from '../catalog/index.js';
import { findingLine } from '../check/report-lines.js';
import { type ExportFormat, formatOfFile, planExport, type SecretChoice, writeExport } from '../export/run.js';
import { formatBytes, plural } from '../format.js';
import {
  type FileSecrets,
  type Locations,
  planRedaction,
  redactSession,
  resolveSessionArg,
  type SecretReport,
  StoreError,
  scanFileSecrets,
  TRASH_STILL_HOLDS,
} from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';
import { jsonOutput } from './json.js';

export interface ExportOptions {
  leaf?: string;
  allBranches: boolean;
  format?: string;
  out?: string;
  redact: boolean;
  keepSecrets: boolean;
}

function chosenFormat(options: ExportOptions): ExportFormat {
  if (options.format !== undefined) {
    if (options.format === 'md' || options.format === 'html' || options.format === 'jsonl') return options.format;
    if (options.format === 'markdown') return 'md';
    throw new StoreError('bad-input', `unknown format "${options.format}": md, html or jsonl`);
  }
  return (options.out !== undefined ? formatOfFile(options.out) : undefined) ?? 'md';
}

export async function exportCommand(
  locations: Locations,
  arg: string,
  options: ExportOptions,
  io: Output,
): Promise<CommandResult> {
  let format: ExportFormat;
  try {
    format = chosenFormat(options);
  } catch (error) {
    io.err(
      `pi-sessions: ${sanitizeInline((error as Error).message)} (usage: pi-sessions export <session> --format md|html|jsonl)`,
    );
    return { code: 2 };
  }
  if (options.out === undefined && io.terminal) {
    io.err(
      'pi-sessions: export writes session text as it is, which a terminal would act on: use --out FILE, or a pipe (| less)',
    );
    return { code: 2 };
  }
  const path = await resolveSessionArg(arg, locations);
  const plan = await planExport(path, {
    ...(options.leaf !== undefined ? { leaf: options.leaf } : {}),
    allBranches: options.allBranches,
  });
  const secrets: SecretChoice = options.redact ? 'redact' : options.keepSecrets ? 'keep' : 'stop';
  const outcome = await writeExport(plan, {
    format,
    secrets,
    ...(options.out !== undefined ? { out: options.out } : {}),
    write: io.write ?? ((bytes) => io.out(bytes.toString('utf8').replace(/\n$/, ''))),
  });
  if (!outcome.done) {
    io.err(
      `pi-sessions: not exported: ${plural(outcome.findings.length, 'secret')} in what would be exported (masked here):`,
    );
    for (const finding of outcome.findings) io.err(findingLine(finding));
    io.err(
      'Run again with --redact to replace them with [REDACTED kind], or --keep-secrets to export them as they are.',
    );
    return { code: 1 };
  }
  const where = outcome.path !== undefined ? ` to ${sanitizeInline(outcome.path)}` : '';
  const note =
    outcome.redacted > 0
      ? `; ${plural(outcome.redacted, 'secret')} redacted`
      : outcome.kept > 0
        ? `; ${plural(outcome.kept, 'secret')} kept as they are (--keep-secrets)`
        : '';
  if (outcome.path !== undefined || outcome.redacted > 0 || outcome.kept > 0)
    io.err(`Exported ${format} (${formatBytes(outcome.bytes)})${where}${note}.`);
  return { code: 0 };
}

export function secretsJson(report: SecretReport): Record<string, unknown> {
  return {
    searched: report.searched,
    fileCount: report.files.length,
    secretCount: report.files.reduce((n, f) => n + f.findings.length, 0),
    filesWithSecrets: report.files.filter((f) => f.findings.length > 0).length,
    files: report.files
      .filter((f) => f.findings.length > 0 || f.problem)
      .map((f) => ({ path: f.path, sessionId: f.sessionId, findings: f.findings, problem: f.problem ?? null })),
  };
}

/** The report as lines a person reads: each file with secrets, its findings, then a total. */
export function formatSecretReport(report: SecretReport): string[] {
  const lines: string[] = [];
  for (const file of report.files) {
    if (file.findings.length === 0) continue;
    lines.push(sanitizeInline(file.path));
    for (const finding of file.findings) lines.push(findingLine(finding));
  }
  const count = report.files.reduce((n, f) => n + f.findings.length, 0);
  const withSecrets = report.files.filter((f) => f.findings.length > 0).length;
  lines.push(
    count === 0
      ? `No secrets in ${plural(report.files.length, 'file')} in ${sanitizeInline(report.searched)}.`
      : `${plural(count, 'secret')} in ${withSecrets} of ${plural(report.files.length, 'file')} in ${sanitizeInline(report.searched)} (masked; pi-sessions redact <session> removes them).`,
  );
  return lines;
}

export async function secretsCheckCommand(
  locations: Locations,
  options: { session?: string; all: boolean; json: boolean; cache?: boolean },
  io: Output,
): Promise<CommandResult> {
  let report: SecretReport;
  if (options.session !== undefined) {
    const path = await resolveSessionArg(options.session, locations);
    const file: FileSecrets = await scanFileSecrets(path);
    if (file.problem) throw new StoreError('not-a-session', `cannot scan ${path}: ${file.problem}`);
    report = { searched: path, files: [file] };
  } else {
    // Findings are kept in the catalogue: a file unchanged since its last scan is not read again.
    const cached = await scanStoreSecretsCached(locations, options.all ? 'all' : 'cwd', {
      cache: options.cache ?? true,
    });
    await cached.saved;
    report = cached;
    if (report.dirProblem) {
      io.err(`pi-sessions: ${sanitizeInline(report.dirProblem)}`);
      return { code: 1 };
    }
  }
  if (options.json) io.out(jsonOutput(secretsJson(report)));
  else for (const line of formatSecretReport(report)) io.out(line);
  const withSecrets = report.files.filter((f) => f.findings.length > 0).length;
  if (withSecrets === 0) return { code: 0 };
  io.err(`pi-sessions: check found secrets in ${plural(withSecrets, 'file')}`);
  return { code: 1 };
}

/**
 * `pi-sessions redact <session> [--yes] [--json]`: without --yes, the secrets it would replace
 * (masked); with it, the redacted copy replaces the file and the original goes to the trash.
 */
export async function redactCommand(
  locations: Locations,
  arg: string,
  options: { yes: boolean; json: boolean },
  io: Output,
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  if (!options.yes) {
    const plan = await planRedaction(path);
    if (options.json) {
      io.out(jsonOutput({ done: false, path: plan.path, findings: plan.findings, lines: plan.lines }));
      return { code: 0 };
    }
    io.out(
      `Would redact ${plural(plan.findings.length, 'secret')} on ${plural(plan.lines, 'line')} of ${sanitizeInline(plan.path)}:`,
    );
    for (const finding of plan.findings) io.out(findingLine(finding));
    io.err(`Run again with --yes to do it (pi-sessions undo takes it back); ${TRASH_STILL_HOLDS}.`);
    return { code: 0 };
  }
  const result = await redactSession(path);
  if (result.journalWarning) io.err(`pi-sessions: warning: ${sanitizeInline(result.journalWarning)}`);
  if (options.json) {
    const { path: real, findings, lines, sizeBefore, sizeAfter } = result;
    io.out(jsonOutput({ done: true, path: real, findings, lines, sizeBefore, sizeAfter }));
    return { code: 0 };
  }
  io.out(io.terminal ? sanitizeInline(result.path) : result.path);
  io.err(
    `Redacted ${plural(result.findings.length, 'secret')} on ${plural(result.lines, 'line')}; ${TRASH_STILL_HOLDS}. pi-sessions undo restores the original.`,
  );
  return { code: 0 };
}
