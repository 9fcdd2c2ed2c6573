/**
 * The scriptable commands that change a session: rename, label, branch, fork, slim and delete.
 * Each goes through the store's journalled writes; a change made but not journalled is a warning,
 * never a failure. Human output goes through `sanitizeInline`, as in commands.ts.
 */
import { basename } from 'node:path';
import { formatBytes, plural } from '../format.js';
import {
  branchInPlace,
  forkSession,
  type Locations,
  planSlim,
  renameSession,
  resolveSessionArg,
  setLabel,
  slimSession,
  trashSessions,
} from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';
import { jsonOutput } from './json.js';

/** A change made but not journalled: a warning on stderr, never a failure (exit status unchanged). */
function warnJournal(io: Output, warning: string | undefined): void {
  if (warning !== undefined) io.err(`pi-sessions: warning: ${sanitizeInline(warning)}`);
}

export async function renameCommand(
  locations: Locations,
  arg: string,
  name: string,
  io: Output,
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  const result = await renameSession(path, name);
  io.out(
    result.name
      ? `Renamed to "${sanitizeInline(result.name)}" (entry ${result.entryId}).`
      : `Name cleared (entry ${result.entryId}).`,
  );
  warnJournal(io, result.journalWarning);
  return { code: 0 };
}

export async function labelCommand(
  locations: Locations,
  arg: string,
  entryId: string,
  label: string | undefined,
  io: Output,
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  const result = await setLabel(path, entryId, label);
  const target = sanitizeInline(entryId);
  io.out(
    result.label
      ? `Labelled ${target} "${sanitizeInline(result.label)}" (entry ${result.entryId}).`
      : `Label of ${target} cleared (entry ${result.entryId}).`,
  );
  warnJournal(io, result.journalWarning);
  return { code: 0 };
}

export async function branchCommand(
  locations: Locations,
  arg: string,
  entryId: string,
  summary: string | undefined,
  io: Output,
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  const result = await branchInPlace(path, entryId, summary === undefined ? {} : { summary });
  io.out(
    `pi will resume ${result.leafId === null ? 'from an empty conversation (new root)' : `after ${sanitizeInline(result.leafId)}`} (entry ${result.entryId}).`,
  );
  if (result.editorText !== undefined) io.out(`Message to re-send: ${sanitizeInline(result.editorText)}`);
  warnJournal(io, result.journalWarning);
  return { code: 0 };
}

/**
 * `fork <session> [<entryId>]`: the new file's path on stdout. Before a user message (pi's /fork)
 * the fork ends at its parent and the message's text, to re-send, goes to stderr (stdout stays
 * only the path, for `$(…)`); with --json both are in one object.
 */
export async function forkCommand(
  locations: Locations,
  arg: string,
  entryId: string | undefined,
  json: boolean,
  io: Output,
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  const fork = await forkSession(path, entryId);
  warnJournal(io, fork.journalWarning);
  if (json) {
    const out: Record<string, unknown> = { path: fork.path, id: fork.id, entries: fork.entries };
    if (fork.editorText !== undefined) out['editorText'] = fork.editorText;
    io.out(jsonOutput(out));
    return { code: 0 };
  }
  io.out(io.terminal ? sanitizeInline(fork.path) : fork.path);
  if (fork.editorText !== undefined) io.err(`Message to re-send: ${sanitizeInline(fork.editorText)}`);
  return { code: 0 };
}

/**
 * `slim <session> [--yes] [--json]`: without --yes, what it would do (nothing is written); with
 * it, the slim copy's path on stdout (like fork) and the sizes on stderr; --json: one object.
 */
export async function slimCommand(
  locations: Locations,
  arg: string,
  options: { yes: boolean; json: boolean },
  io: Output,
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  if (!options.yes) {
    const plan = await planSlim(path);
    const off = plan.entries - plan.branchEntries;
    if (options.json) {
      const { path: listed, linkTarget, sizeBefore, entries, branchEntries, estimatedAfter } = plan;
      io.out(
        jsonOutput({
          done: false,
          path: listed,
          linkTarget: linkTarget ?? null,
          sizeBefore,
          entries,
          branchEntries,
          estimatedAfter,
        }),
      );
    } else if (off === 0)
      io.out(`Nothing to slim: every entry of ${sanitizeInline(plan.path)} is on the active branch.`);
    else {
      io.out(
        `Would keep the active branch of ${sanitizeInline(plan.path)}: ${plural(plan.branchEntries, 'entry', 'entries')} of ${plan.entries}, ${formatBytes(plan.sizeBefore)} → about ${formatBytes(plan.estimatedAfter)}; ${plan.linkTarget ? `the link would go to the trash (the file it leads to, ${sanitizeInline(plan.linkTarget)}, stays as it is)` : 'the original would go to the trash'}.`,
      );
      // Advice, not the plan: stderr, so the plan alone can be piped or captured.
      io.err('Run again with --yes to do it (pi-sessions undo takes it back).');
    }
    return { code: 0 };
  }
  const result = await slimSession(path);
  warnJournal(io, result.journalWarning);
  if (options.json) {
    const { path: original, slimPath, linkTarget, sizeBefore, sizeAfter, entriesBefore, entriesAfter } = result;
    io.out(
      jsonOutput({
        done: true,
        path: original,
        slimPath,
        linkTarget: linkTarget ?? null,
        sizeBefore,
        sizeAfter,
        entriesBefore,
        entriesAfter,
      }),
    );
    return { code: 0 };
  }
  io.out(io.terminal ? sanitizeInline(result.slimPath) : result.slimPath);
  io.err(
    `Slimmed ${formatBytes(result.sizeBefore)} → ${formatBytes(result.sizeAfter)} (${plural(result.entriesAfter, 'entry', 'entries')} of ${result.entriesBefore}); ${result.linkTarget ? `the link is in the trash and the file it led to, ${sanitizeInline(result.linkTarget)}, is untouched (pi-sessions undo restores the link)` : 'the original is in the trash (pi-sessions undo restores it)'}.`,
  );
  return { code: 0 };
}

export async function deleteCommand(
  locations: Locations,
  args: string[],
  permanent: boolean,
  io: Output,
): Promise<CommandResult> {
  const paths: string[] = [];
  for (const arg of args) paths.push(await resolveSessionArg(arg, locations));
  const outcome = await trashSessions(paths, { permanent });
  for (const item of outcome.trashed) {
    io.out(`${item.how === 'trash' ? 'Moved to trash' : 'Deleted permanently'}: ${sanitizeInline(item.path)}`);
  }
  warnJournal(io, outcome.journalWarning);
  for (const failure of outcome.failed) {
    // Only a trash that could not take a file that is still there is worth a permanent delete.
    const hint =
      !permanent && failure.trashUnavailable && failure.kept !== false
        ? ' (nothing was deleted; --permanent deletes for good)'
        : '';
    io.err(`pi-sessions: ${sanitizeInline(basename(failure.path))}: ${sanitizeInline(failure.error)}${hint}`);
  }
  return { code: outcome.failed.length > 0 ? 1 : 0 };
}
