import { join } from 'node:path';
import { sanitizeInline, stripTerminalSequences } from '../text/terminal-text.js';

/**
 * What the pi extension asks pi-sessions to do and what it does with the answer (pure, so it is
 * tested without pi). The extension itself (`extension.ts`) only hands the terminal over and
 * calls pi's API.
 *
 * The CLI runs as a child with stdout piped: the picker then draws on the controlling terminal
 * (/dev/tty) and writes nothing but the chosen path to stdout (`--print`), the same contract as
 * `pi --session "$(pi-sessions --print)"`.
 */

export interface PiSessionFacts {
  /** pi's cwd (`ctx.cwd`). */
  cwd: string;
  /** The running session's file, if it is persisted. */
  sessionFile: string | undefined;
  /** The folder pi keeps this session in (`sessionManager.getSessionDir()`). */
  sessionDir: string;
  /** Where pi-sessions would look on its own, from the same env and settings rules as pi. */
  defaultSessionDir: string;
}

/** `--session-dir` only when pi was started with one that our own resolution would not find. */
function sessionDirArgs(facts: PiSessionFacts): string[] {
  return samePath(facts.sessionDir, facts.defaultSessionDir) ? [] : ['--session-dir', facts.sessionDir];
}

function samePath(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/**
 * Where the pi-sessions program may be, relative to the folder of the extension's own file, in
 * the order they are tried: the published package is two bundles side by side
 * (`bin/pi-extension.js` and `bin/pi-sessions.js`); the unbundled build has the extension in
 * `dist/src/pi-extension/` and the CLI at `dist/src/cli.js`.
 */
export function cliCandidates(extensionDir: string): string[] {
  return [join(extensionDir, 'pi-sessions.js'), join(extensionDir, '..', 'cli.js')];
}

/** The one line pi shows when no candidate exists. */
export function missingCliMessage(candidates: readonly string[]): string {
  return sanitizeInline(
    `pi-sessions could not start: its program is missing (looked for ${candidates.join(' and ')}); reinstall the package`,
  );
}

export function pickerArgs(facts: PiSessionFacts, query: string): string[] {
  const args = ['--print', ...sessionDirArgs(facts)];
  if (facts.sessionFile) args.push('--current', facts.sessionFile);
  if (query.trim() !== '') args.push('--query', query.trim());
  return args;
}

/**
 * `--print-entry`: "Resume from here" is not written but handed back (`entry <id>`), for pi to
 * move there itself as its /tree does; Open in pi prints a path, as `--print` does.
 */
export function treeArgs(facts: PiSessionFacts & { sessionFile: string }): string[] {
  return ['tree', facts.sessionFile, '--print-entry', ...sessionDirArgs(facts)];
}

/** What the child process reported. */
export interface ChildOutcome {
  status: number | null;
  /** The signal that ended the child (spawnSync's `signal`), if one did. */
  signal?: string | null;
  stdout: string;
  stderr: string;
  /** The child could not be started at all. */
  error?: string;
}

export type NextStep =
  | { kind: 'switch'; path: string }
  | { kind: 'reload'; path: string }
  /**
   * pi moves to `entryId` itself (`ctx.navigateTree`, what its /tree runs: at a user message the
   * leaf goes to its parent and the message's text to the editor). `reloadFirst`: the tree wrote
   * to the file too (a label, say), so pi reads it again before it moves.
   */
  | { kind: 'navigate'; entryId: string; reloadFirst?: string }
  | { kind: 'nothing' }
  | { kind: 'report'; message: string };

/**
 * The first line of what the child said on stderr, for pi's one-line notice, safe to show. The
 * terminal sequences a full-screen program leaves there (ink shows the cursor on stderr as it
 * exits) are not words: a stderr of only those said nothing. Not the store's `firstLineOf`: that
 * takes an Error's first line as it is, this skips the lines that say nothing and sanitises.
 */
function firstSaidLine(text: string): string {
  return (
    stripTerminalSequences(text)
      .split('\n')
      .map((line) => sanitizeInline(line))
      .find((line) => line !== '') ?? ''
  );
}

function failure(outcome: ChildOutcome): NextStep | undefined {
  if (outcome.error)
    return { kind: 'report', message: sanitizeInline(`pi-sessions could not start: ${outcome.error}`) };
  // A SIGINT to the process group before the picker set up its handlers (while Node starts): the user left.
  if (outcome.signal === 'SIGINT') return undefined;
  if (outcome.signal) return { kind: 'report', message: `pi-sessions was stopped by ${outcome.signal}` };
  // 0: a path was chosen; 130: Ctrl+C; 1 with nothing said: Esc (--print). A 1 with a message
  // on stderr is a failure (an unreadable session, an unexpected error), and so is anything else.
  const said = firstSaidLine(outcome.stderr);
  if (outcome.status === 0 || outcome.status === 130 || (outcome.status === 1 && said === '')) return undefined;
  return {
    kind: 'report',
    message: said === '' ? `pi-sessions exited with status ${outcome.status ?? 'unknown'}` : said,
  };
}

function fileChanged(before: FileState | undefined, after: FileState | undefined): boolean {
  if (before === undefined) return false;
  return after === undefined || after.size !== before.size || after.mtimeMs !== before.mtimeMs;
}

const ENTRY_PREFIX = 'entry ';

/** The entry `--print-entry` handed back: everything after the prefix but the final line break. */
function chosenEntry(outcome: ChildOutcome): string | undefined {
  if (outcome.status !== 0 || !outcome.stdout.startsWith(ENTRY_PREFIX)) return undefined;
  const id = outcome.stdout.slice(ENTRY_PREFIX.length).replace(/\r?\n$/, '');
  return id === '' ? undefined : id;
}

function chosenPath(outcome: ChildOutcome): string | undefined {
  if (outcome.status !== 0 || outcome.stdout.startsWith(ENTRY_PREFIX)) return undefined;
  const path = outcome.stdout.replace(/\r?\n$/, '');
  return path === '' || path.includes('\n') ? undefined : path;
}

/**
 * After `/sessions`: switch to the chosen session unless it is the one pi is in; when the
 * picker wrote to pi's own file (a rename), reload it so pi shows the new name.
 */
export function afterPicker(
  outcome: ChildOutcome,
  current: string | undefined,
  before?: FileState,
  after?: FileState,
): NextStep {
  const failed = failure(outcome);
  if (failed) return failed;
  const path = chosenPath(outcome);
  if (path !== undefined && (current === undefined || !samePath(path, current))) return { kind: 'switch', path };
  return current !== undefined && fileChanged(before, after) ? { kind: 'reload', path: current } : { kind: 'nothing' };
}

/** A file's identity and size before and after, to tell whether the tree view wrote to it. */
export interface FileState {
  size: number;
  mtimeMs: number;
}

/**
 * After `/sessions-tree`: "Resume from here" handed back is pi's own move there (after a reload
 * when the file changed meanwhile); a fork opened in pi switches to it; any other change to the
 * current file (a label, a summary, an undo) reloads it so pi's in-memory state matches the file.
 */
export function afterTree(
  outcome: ChildOutcome,
  current: string,
  before: FileState,
  after: FileState | undefined,
): NextStep {
  const failed = failure(outcome);
  if (failed) return failed;
  const entryId = chosenEntry(outcome);
  if (entryId !== undefined)
    return fileChanged(before, after)
      ? { kind: 'navigate', entryId, reloadFirst: current }
      : { kind: 'navigate', entryId };
  const path = chosenPath(outcome);
  if (path !== undefined && !samePath(path, current)) return { kind: 'switch', path };
  return fileChanged(before, after) || path !== undefined ? { kind: 'reload', path: current } : { kind: 'nothing' };
}
