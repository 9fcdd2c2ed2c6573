/**
 * How a journalled change is told to the user, in one place: `undo --list`, the CLI's messages
 * and the screens' undo and redo questions all say the same thing of the same record. Pure: what
 * it says comes from the record (its title, project and time), never from the disk.
 */
import { homedir } from 'node:os';
import { basename } from 'node:path';
import { type JournalRecord, preview } from './records.js';

/** Texts quoted in a description are cut to this many characters. */
const QUOTE_MAX = 60;
const q = (text: string): string => `"${preview(text, QUOTE_MAX)}"`;

export interface DescribeContext {
  nowMs: number;
  /** Shown as `~` in project paths. */
  home?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the local date. */
export function agoText(iso: string, nowMs: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return 'at an unknown time';
  const diff = nowMs - at;
  if (diff < MINUTE) return 'just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} min ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)} h ago`;
  if (diff < 30 * DAY) {
    const days = Math.floor(diff / DAY);
    return days === 1 ? 'yesterday' : `${days} days ago`;
  }
  const d = new Date(at);
  return `on ${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

function tildePath(path: string, home: string): string {
  return home !== '/' && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

/** The session a change is about, as the user knows it: its title, else its file (a slim: the original's). */
export function sessionName(record: JournalRecord): string {
  if (record.title !== undefined && record.title !== '') return `“${record.title}”`;
  return basename(record.kind === 'slim' ? record.source : record.path);
}

/** The file a change is about (a slim: the original). */
export function sessionFile(record: JournalRecord): string {
  return basename(record.kind === 'slim' ? record.source : record.path);
}

function where(record: JournalRecord, ctx: DescribeContext): string {
  const file = sessionFile(record);
  const project = record.cwd === undefined ? '' : ` in ${tildePath(record.cwd, ctx.home ?? homedir())}`;
  const named = record.title !== undefined && record.title !== '' ? `${file}${project}` : project.trimStart();
  return [named, agoText(record.time, ctx.nowMs)].filter((part) => part !== '').join(', ');
}

/**
 * The change, the session, where and when: "the rename of “Plan” (2026-…_x.jsonl in ~/code/app,
 * 3 days ago)". `batch`: the records of a delete of several sessions (the first is the newest).
 */
export function describeChange(
  record: JournalRecord,
  ctx: DescribeContext,
  batch: readonly JournalRecord[] = [record],
): string {
  if (batch.length > 1) {
    const names = batch.slice(0, 2).map(sessionName);
    const more = batch.length > 2 ? ` and ${batch.length - 2} more` : '';
    return `the delete of ${batch.length} sessions (${names.join(', ')}${more}, ${agoText(record.time, ctx.nowMs)})`;
  }
  return `the ${record.kind} of ${sessionName(record)} (${where(record, ctx)})`;
}

/** What undoing `record` does, in a few words. */
export function describeUndo(record: JournalRecord, batchSize = 1): string {
  switch (record.kind) {
    case 'rename':
      return record.previousName === null ? 'clear the name again' : `name it ${q(record.previousName)} again`;
    case 'label':
      return record.previousLabel === null
        ? `clear the label of ${record.targetId}`
        : `label ${record.targetId} ${q(record.previousLabel)} again`;
    case 'branch':
      return record.previousLeafId === null
        ? 'resume from an empty conversation again'
        : `resume after ${record.previousLeafId} again`;
    case 'fork':
      return 'move the fork to the trash';
    case 'delete':
      if (batchSize > 1) return `restore the ${batchSize} sessions deleted together from the trash`;
      return record.how === 'deleted' ? 'nothing: it was deleted permanently' : 'restore it from the trash';
    case 'slim':
      return 'restore the original from the trash and move the slim copy to the trash';
    case 'redact':
      return 'move the redacted copy to the trash and restore the original (with its secrets) from the trash';
    case 'merge':
      return `move the merged file to the trash and restore the original and its ${record.sources.length === 2 ? 'conflict copy' : `${record.sources.length - 1} conflict copies`} from the trash`;
    default:
      return 'nothing';
  }
}

/** What redoing `change` (taken back by an undo) does. */
export function describeRedo(change: JournalRecord, batchSize = 1): string {
  switch (change.kind) {
    case 'rename':
      return change.name === undefined || change.name === ''
        ? 'clear the name again'
        : `name it ${q(change.name)} again`;
    case 'label':
      return change.label === undefined || change.label === null
        ? `clear the label of ${change.targetId} again`
        : `label ${change.targetId} ${q(change.label)} again`;
    case 'branch':
      return 'resume where the branch went again';
    case 'fork':
      return 'restore the fork from the trash';
    case 'delete':
      return batchSize > 1 ? `move the ${batchSize} sessions to the trash again` : 'move it to the trash again';
    case 'slim':
      return 'slim it again (a new copy of its active branch; the original to the trash)';
    case 'redact':
      return 'redact it again (a copy without its secrets; the original to the trash)';
    case 'merge':
      return 'merge the conflict copies again (the files as they are now; they go to the trash)';
    default:
      return 'nothing';
  }
}

/** "name it "x" again" → "name it "x"" after "Undid …:". */
export function plainAction(text: string): string {
  return text.replace(/ again$/, '');
}
