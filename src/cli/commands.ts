import { listSessionsCached } from '../catalog/list.js';
import { formatBytes, formatRelativeAge, plural } from '../format.js';
import {
  buildContext,
  buildTree,
  describeTooLarge,
  getBranch,
  type ListResult,
  type ListScope,
  type LoadedSession,
  type Locations,
  readSessionSync,
  resolveSessionArg,
  type SessionInfo,
  StoreError,
  sessionInfoJson,
  sessionTitle,
} from '../store/index.js';
import { displayWidth, padEndToWidth, sanitizeInline, truncateToWidth } from '../text/terminal-text.js';
import { jsonOutput } from './json.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Terminal width for tables (undefined when not a terminal: no truncation). */
  columns?: number;
  /** stdout is a terminal: a path printed for scripts is made safe to show; otherwise it is written byte for byte. */
  terminal?: boolean;
  /** Bytes as they are, no newline added (an export to stdout); without it `out` is used. */
  write?(bytes: Buffer): Promise<void>;
}

export interface CommandResult {
  code: number;
}

/** A readable table: age, prompts, size, title (and cwd for all projects). */
export function formatSessionTable(
  sessions: SessionInfo[],
  options: { showCwd: boolean; columns?: number; nowMs: number },
): string[] {
  const rows = sessions.map((s) => ({
    age: formatRelativeAge(s.modified.getTime(), options.nowMs),
    prompts: String(s.userMessageCount),
    size: formatBytes(s.size),
    flags: `${s.name ? '★' : ' '}${s.problems.length > 0 ? '!' : ' '}`,
    title: sanitizeInline(sessionTitle(s)),
    cwd: sanitizeInline(s.cwd),
    id: truncateToWidth(sanitizeInline(s.id), 8, ''),
  }));
  const width = (key: keyof (typeof rows)[number], head: string): number =>
    Math.max(displayWidth(head), ...rows.map((r) => displayWidth(r[key])));
  const w = {
    age: width('age', 'AGE'),
    prompts: width('prompts', 'PROMPTS'),
    size: width('size', 'SIZE'),
    id: width('id', 'ID'),
  };
  const cwdWidth = options.showCwd ? Math.min(40, width('cwd', 'CWD')) : 0;
  const line = (r: {
    age: string;
    prompts: string;
    size: string;
    flags: string;
    title: string;
    cwd: string;
    id: string;
  }): string => {
    const left =
      `${padEndToWidth(r.age, w.age)}  ${r.prompts.padStart(w.prompts)}  ${r.size.padStart(w.size)}  ${padEndToWidth(r.id, w.id)}  ` +
      (options.showCwd ? `${padEndToWidth(truncateToWidth(r.cwd, cwdWidth), cwdWidth)}  ` : '') +
      r.flags +
      ' ';
    const full = left + r.title;
    return options.columns ? truncateToWidth(full, Math.max(options.columns - 1, displayWidth(left) + 8)) : full;
  };
  const header = line({
    age: 'AGE',
    prompts: 'PROMPTS',
    size: 'SIZE',
    flags: '  ',
    title: 'TITLE',
    cwd: 'CWD',
    id: 'ID',
  });
  return [header, ...rows.map(line)];
}

export interface ListingOptions {
  scope: ListScope;
  cache?: boolean;
}

/**
 * Lists the scope through the catalogue for a command that prints from the listing: a folder
 * that cannot be read (its name may come from a repository's .pi/settings.json: never trusted)
 * is one line and exit 1; after the output, waits for the catalogue to be written so the next
 * run starts warm (never rejects).
 */
export async function withListing(
  locations: Locations,
  options: ListingOptions,
  io: Output,
  print: (result: ListResult) => CommandResult,
): Promise<CommandResult> {
  // Rows are printed, never searched: without the catalogue their search fields are not gathered.
  const result = await listSessionsCached(locations, {
    scope: options.scope,
    cache: options.cache ?? true,
    searchFields: 'on-demand',
  });
  try {
    if (result.dirProblem) {
      io.err(`pi-sessions: ${sanitizeInline(result.dirProblem)}`);
      return { code: 1 };
    }
    return print(result);
  } finally {
    await result.saved;
  }
}

export async function listCommand(
  locations: Locations,
  options: { scope: ListScope; json: boolean; nowMs: number; cache?: boolean },
  io: Output,
): Promise<CommandResult> {
  return withListing(locations, options, io, (result) => printList(result, options, io));
}

function printList(
  result: ListResult,
  options: { scope: ListScope; json: boolean; nowMs: number },
  io: Output,
): CommandResult {
  if (options.json) {
    io.out(jsonOutput({ searched: result.searched, sessions: result.sessions.map(sessionInfoJson) }));
    return { code: 0 };
  }
  if (result.sessions.length === 0) {
    const where = result.dirMissing
      ? `${sanitizeInline(result.searched)} does not exist`
      : `nothing in ${sanitizeInline(result.searched)}`;
    io.out(`No sessions (${where}).${options.scope === 'cwd' ? ' Try --all for every project.' : ''}`);
  } else {
    for (const line of formatSessionTable(result.sessions, {
      showCwd: options.scope !== 'cwd',
      nowMs: options.nowMs,
      ...(io.columns ? { columns: io.columns } : {}),
    }))
      io.out(line);
    const skipped =
      result.skipped.length > 0 ? `; ${plural(result.skipped.length, 'file')} skipped (not sessions)` : '';
    const withProblems = result.sessions.filter((s) => s.problems.length > 0).length;
    const problems = withProblems > 0 ? `; ${withProblems} with problems (!)` : '';
    io.out(`${plural(result.sessions.length, 'session')} in ${sanitizeInline(result.searched)}${problems}${skipped}`);
  }
  return { code: 0 };
}

function loadOrFail(path: string): LoadedSession {
  const result = readSessionSync(path);
  if (!result.ok) throw new StoreError('not-a-session', `${path}: ${result.message}`);
  return result;
}

/** `tree --json`: the same field names and meaning as the corpus goldens. */
export function treeJson(session: LoadedSession): Record<string, unknown> {
  const tree = buildTree(session);
  const children: Record<string, string[]> = {};
  for (const [parent, kids] of tree.children) children[parent] = kids.map((k) => k.id);
  return {
    path: session.path,
    header: session.header,
    diskVersion: session.diskVersion,
    sessionName: tree.sessionName ?? null,
    leafId: tree.leafId,
    entryCount: session.entries.length,
    entries: session.entries.map((e) => ({ id: e.id, parentId: e.parentId, type: e.type })),
    tree: { roots: tree.roots.map((r) => r.id), children },
    labels: Object.fromEntries(tree.labels),
    labelTimestamps: Object.fromEntries(tree.labelTimestamps),
    branch: getBranch(tree, tree.leafId).map((e) => e.id),
    problems: [...session.problems, ...tree.problems],
  };
}

/**
 * `context --json`: `messages` exactly as the model gets them (pi's objects, nothing added) and,
 * parallel to them, `sources`: the entry each came from, or the compaction whose `retainedTail`
 * holds it. `droppedByPi` says when pi 1.6.0 would leave retained messages out (`--as-pi` gives
 * its answer).
 */
export function contextJson(
  session: LoadedSession,
  leafId: string | undefined,
  options: { asPi?: boolean } = {},
): Record<string, unknown> {
  const tree = buildTree(session);
  if (leafId !== undefined && !tree.byId.has(leafId))
    throw new StoreError('no-entry', `no entry ${leafId} in ${session.path}`);
  const asPi = options.asPi === true;
  const context = buildContext(tree, leafId ?? tree.leafId, { asPi });
  if (context.cutEntry)
    throw new StoreError(
      'too-large',
      `${session.path}: cannot give the context: entry ${context.cutEntry.entryId} is on its path and ${describeTooLarge(context.cutEntry.line)}, too large to read whole`,
    );
  const retained = context.retainedTail;
  return {
    rule: asPi ? 'pi-1.6.0' : 'format',
    model: context.model,
    thinkingLevel: context.thinkingLevel,
    contextEntries: context.contextEntries.map((e) => e.id),
    messages: context.messages,
    sources: context.sources,
    droppedByPi:
      retained && (retained.droppedMessages > 0 || retained.keptEntriesInstead.length > 0)
        ? {
            pi: '1.6.0',
            compactionId: retained.compactionId,
            retainedMessages: retained.droppedMessages,
            keptEntriesInstead: retained.keptEntriesInstead,
          }
        : null,
  };
}

export async function treeCommand(locations: Locations, arg: string, io: Output): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  io.out(jsonOutput(treeJson(loadOrFail(path))));
  return { code: 0 };
}

export async function contextCommand(
  locations: Locations,
  arg: string,
  leafId: string | undefined,
  io: Output,
  options: { asPi?: boolean } = {},
): Promise<CommandResult> {
  const path = await resolveSessionArg(arg, locations);
  io.out(jsonOutput(contextJson(loadOrFail(path), leafId, options)));
  return { code: 0 };
}
