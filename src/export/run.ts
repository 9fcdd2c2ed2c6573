/**
 * One export, from a session to a file or a stream: pick the branch (or every branch), scan what
 * would go out for secrets, then stop, redact or keep as the caller chose, and write the format.
 * The CLI and the screens both come here, so they export the same bytes.
 */
import { writeFile } from 'node:fs/promises';
import {
  describeFsError,
  type ExportScope,
  type ExportSelection,
  exportBranchJsonl,
  exportFileJsonl,
  redactValue,
  type SecretFinding,
  type SecretScan,
  StoreError,
  scanEntries,
  selectForExport,
} from '../store/index.js';
import { documentHtml } from './html.js';
import { documentMarkdown } from './markdown.js';
import { exportDocument } from './messages.js';

export const EXPORT_FORMATS = ['md', 'html', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What to do when the export holds a secret: stop (the CLI's default), replace it, or keep it (explicit). */
export type SecretChoice = 'stop' | 'redact' | 'keep';

/** The format an output file's name asks for (`.md`, `.html`/`.htm`, `.jsonl`), else undefined. */
export function formatOfFile(path: string): ExportFormat | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  if (ext === 'md' || ext === 'markdown') return 'md';
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'jsonl') return 'jsonl';
  return undefined;
}

export interface ExportPlan {
  selection: ExportSelection;
  scan: SecretScan;
}

/** Reads the session and scans what the export would hold (nothing written). */
export async function planExport(path: string, scope: ExportScope): Promise<ExportPlan> {
  const selection = await selectForExport(path, scope);
  if (selection.branches.length === 0)
    throw new StoreError('no-entry', `${selection.path}: nothing to export (the session has no entries)`);
  // Labels are exported too (the headings and the JSONL's re-created labels): their text is scanned as well.
  const labels = [...selection.tree.labels].map(([targetId, label]) => ({
    entry: { type: 'label', id: targetId, parentId: null, label },
    line: 0,
  }));
  const scan = await scanEntries([...selection.entries, ...labels]);
  return { selection, scan };
}

export type ExportOutcome =
  | { done: true; format: ExportFormat; bytes: number; redacted: number; kept: number; path?: string }
  | { done: false; findings: SecretFinding[] };

/** The selection with every secret replaced, down to the session's title and labels. */
function redactedSelection(selection: ExportSelection, secrets: ReadonlyMap<string, string>): ExportSelection {
  const tree = {
    ...selection.tree,
    labels: new Map([...selection.tree.labels].map(([k, v]) => [k, redactValue(v, secrets)])),
    sessionName:
      selection.tree.sessionName === undefined ? undefined : redactValue(selection.tree.sessionName, secrets),
    order: selection.tree.order.map((e) => redactValue(e, secrets)),
  };
  return {
    ...selection,
    tree,
    branches: selection.branches.map((b) => ({ ...b, entries: b.entries.map((e) => redactValue(e, secrets)) })),
  };
}

/** Writes a new file (never over an existing one: the user names another or removes it). */
async function writeNew(path: string, bytes: Buffer | string): Promise<void> {
  try {
    await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    throw new StoreError('write-failed', `cannot write ${path}: ${describeFsError(error)}`);
  }
}

export interface ExportRequest {
  format: ExportFormat;
  secrets: SecretChoice;
  /** A file to create; without it the export goes to `write`. */
  out?: string;
  write?: (bytes: Buffer) => void | Promise<void>;
}

/** Writes the export of a plan (unless a secret stops it). */
export async function writeExport(plan: ExportPlan, request: ExportRequest): Promise<ExportOutcome> {
  const { findings, secrets } = plan.scan;
  if (findings.length > 0 && request.secrets === 'stop') return { done: false, findings };
  const redact = findings.length > 0 && request.secrets === 'redact' ? secrets : new Map<string, string>();
  const counts = {
    redacted: redact.size > 0 ? findings.length : 0,
    kept: request.secrets === 'keep' ? findings.length : 0,
  };
  const { selection } = plan;
  const sink = async (bytes: Buffer): Promise<void> => {
    if (request.out !== undefined) await writeNew(request.out, bytes);
    else await request.write?.(bytes);
  };
  const outPath = request.out !== undefined ? { path: request.out } : {};
  if (request.format === 'jsonl') {
    if (selection.allBranches) {
      const bytes = await exportFileJsonl(selection.path, redact);
      await sink(bytes);
      return { done: true, format: 'jsonl', bytes: bytes.length, ...counts, ...outPath };
    }
    let bytes = 0;
    const target =
      request.out ??
      (async (chunks: AsyncIterable<Buffer>): Promise<void> => {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          await request.write?.(chunk);
        }
      });
    await exportBranchJsonl(selection.path, selection.branches[0]!.leafId, target, redact);
    return { done: true, format: 'jsonl', bytes, ...counts, ...outPath };
  }
  const shown = redact.size > 0 ? redactedSelection(selection, redact) : selection;
  const doc = redact.size > 0 ? redactValue(exportDocument(shown), redact) : exportDocument(shown);
  const text = Buffer.from(request.format === 'md' ? documentMarkdown(doc) : documentHtml(doc));
  await sink(text);
  return { done: true, format: request.format, bytes: text.length, ...counts, ...outPath };
}

/** An export to a new file, as the screens ask for it: the branch to `leaf` (default: the active branch). */
export interface FileExportRequest {
  path: string;
  format: ExportFormat;
  out: string;
  secrets: SecretChoice;
  leaf?: string;
}

/** Plans and writes an export to a new file (a secret stops it unless `secrets` chose). */
export async function exportToFile({ path, format, out, secrets, leaf }: FileExportRequest): Promise<ExportOutcome> {
  return writeExport(await planExport(path, leaf === undefined ? {} : { leaf }), { format, out, secrets });
}
