/**
 * The picker's rows, derived from the scope's list, the query, the filters and the sort: the
 * search runs here (in slices for a `re:` term), the cursor stays on the chosen session, and a
 * `has:secret` query starts the scope's secret scan. Also the list updates the rows come from.
 */
import { type TextInputAction, textInputReducer } from '../state/text-input.js';
import { clampOffset } from '../state/viewport.js';
import type { SessionInfo } from '../store/index.js';
import { conflictFolding, foldConflictMatches, foldedParents, markConflictRows } from './conflict-rows.js';
import { asksForSecrets, createSearchIndex, hasRankingTerms, parseQuery, sameQuery, searchSessions } from './query.js';
import { type Row, sortRows } from './sort.js';
import {
  currentList,
  type PickerState,
  relayout,
  SCOPES,
  type Scope,
  type ScopeList,
  SEARCH_WITH_KEY_MS,
  withEffect,
} from './state.js';

function sameSessions(a: readonly SessionInfo[], b: readonly SessionInfo[]): boolean {
  return a === b || (a.length === b.length && a.every((info, i) => info === b[i]));
}

/**
 * How long one search pass may run a `re:` term (regex-search.ts): the rest of the sessions are
 * searched in later passes, one per turn of the event loop, so a key is never kept waiting longer.
 */
export const SEARCH_SLICE_MS = 20;

/** Starts the secret scan of the scope when the query asks for it and none is there (or it is stale). */
function withSecretScan(state: PickerState): PickerState {
  if (!asksForSecrets(state.parsed)) return state;
  const known = state.secrets;
  if (known?.scope === state.scope && (known.running || !known.stale)) return state;
  const counts = known?.scope === state.scope ? known.counts : new Map<string, number>();
  return withEffect(
    { ...state, secrets: { scope: state.scope, counts, running: true, stale: false, scanned: 0, total: 0 } },
    { kind: 'scanSecrets', scope: state.scope },
  );
}

/**
 * Recomputes rows from the current list, query, filters and sort; keeps the cursor on the chosen
 * session (by path), or on the first row while the user has not moved.
 */
export function derive(given: PickerState, resetCursor = false): PickerState {
  const state = withSecretScan(given);
  // A queued search is for a new query: its results start at their best match, like any search typed.
  const reset = resetCursor || state.queuedSearch !== undefined;
  const sessions = currentList(state)?.sessions ?? [];
  // The same sessions in a new array (the load's last publish, then its end) keep their index.
  const index =
    state.index && sameSessions(state.index.sessions, sessions) && state.index.pathMap === state.pathMap
      ? state.index
      : createSearchIndex(sessions, state.pathMap);
  let rows: Row[] = [];
  let unindexed = 0;
  let searchPending = 0;
  if (state.parsed.ok) {
    const secrets = state.secrets?.scope === state.scope ? state.secrets.counts : undefined;
    const outcome = searchSessions(index, state.parsed, {
      preparedOnly: state.preparedOnly,
      budgetMs: SEARCH_SLICE_MS,
      ...(secrets ? { secrets } : {}),
    });
    // Conflict copies fold into their original's row before the filters and the sort see them.
    const folding = conflictFolding(sessions);
    const folded = foldConflictMatches(outcome.matches, folding);
    const matches = state.namedOnly
      ? folded.filter((m) => m.info.name !== undefined && m.info.name.trim() !== '')
      : folded;
    // Folded copies take their original's place among the matches, which may then not be newest first.
    const newestFirst = index.newestFirst && folding.originalOf.size === 0;
    const sorted = sortRows(
      matches,
      state.sort,
      hasRankingTerms(state.parsed),
      foldedParents(index.parents, folding),
      newestFirst,
    );
    rows = markConflictRows(sorted, folding);
    unindexed = outcome.unindexed;
    searchPending = outcome.pending;
  }
  const followTop = reset || state.followTop;
  let cursor = 0;
  if (!followTop && state.cursorPath !== undefined) {
    const at = rows.findIndex((r) => r.info.path === state.cursorPath);
    cursor = at >= 0 ? at : Math.min(state.cursor, Math.max(0, rows.length - 1));
  }
  // While following the top, the target is whatever is first; otherwise keep the target even if
  // it is not (yet) in the rows, so it is found again when it arrives.
  const cursorPath = followTop ? rows[0]?.info.path : state.cursorPath;
  return relayout({
    ...state,
    index,
    rows,
    rowsQuery: state.parsed,
    queuedSearch: undefined,
    unindexed,
    searchPending,
    cursor,
    cursorPath,
    followTop,
    offset: clampOffset(reset ? 0 : state.offset, cursor, state.listLines, rows.length),
  });
}

/**
 * Whether a typed query's search waits for the frame that echoes it. A list smaller than
 * ECHO_FIRST always searches with the key (its search costs well under a frame). A bigger one
 * searches after the echo, until the screen has timed its searches with all text prepared: then
 * only when the next is expected to cost more than SEARCH_WITH_KEY_MS.
 */
export function echoesFirst(state: PickerState): boolean {
  const sessions = currentList(state)?.sessions ?? [];
  if (sessions.length < state.echoFirst.sessions && bytesBelow(sessions, state.echoFirst.bytes)) return false;
  // While text is still being prepared the timing says little: the searches skipped the unprepared
  // sessions, and a key that searches prepares some text first (components/picker/PickerScreen.tsx).
  if (state.unindexed > 0) return true;
  return state.searchCost === undefined || state.searchCost * sessions.length > SEARCH_WITH_KEY_MS;
}

/**
 * Whether the sessions' sizes add up to less than `limit`. Asked only of a list under the session
 * bound: summing 50,000 records scattered over the heap took ~2.5 ms, twice on every typed key.
 */
function bytesBelow(sessions: readonly SessionInfo[], limit: number): boolean {
  let bytes = 0;
  for (const info of sessions) {
    bytes += info.size;
    if (bytes >= limit) return false;
  }
  return true;
}

/** A timed search: the cost per session, decaying by half per search rather than dropping at once. */
export function searchTimed(state: PickerState, ms: number, sessions: number): PickerState {
  const cost = ms / Math.max(1, sessions);
  return { ...state, searchCost: Math.max(cost, (state.searchCost ?? 0) / 2) };
}

/**
 * Edits the search text. The query line changes at once; the search runs with it on a small
 * list, and on a big one after the frame that shows it (a `search` effect: `runSearch` brings it
 * back, and a burst of keys queues one search after another, of which only the last runs).
 */
export function setQuery(state: PickerState, action: TextInputAction, nowMs: number): PickerState {
  const query = textInputReducer(state.query, action);
  if (query === state.query) return state;
  if (query.value === state.query.value) return { ...state, query };
  const parsed = parseQuery(query.value, nowMs);
  // A space typed after a word (or taken back) changes nothing the search sees: same rows, same cursor.
  if (sameQuery(parsed, state.parsed)) return { ...state, query, parsed };
  // An invalid query has no rows to search for: it is shown with its error at once.
  if (!parsed.ok || !echoesFirst(state)) return derive({ ...state, query, parsed }, true);
  return withEffect({ ...state, query, parsed, queuedSearch: state.nextId }, { kind: 'search' });
}

/** The rows of the typed query: its queued search runs now, if it has not yet. */
export function settled(state: PickerState): PickerState {
  return state.queuedSearch === undefined ? state : derive(state);
}

/** `runSearch`: the queued search, unless a newer one replaced it (then its own `runSearch` is still to come). */
export function runQueuedSearch(state: PickerState, id: number): PickerState {
  return state.queuedSearch === id ? derive(state) : state;
}

export function updateInfos(
  state: PickerState,
  path: string,
  update: (info: SessionInfo) => SessionInfo | undefined,
): PickerState {
  const lists: Partial<Record<Scope, ScopeList>> = {};
  let changed = false;
  for (const scope of SCOPES) {
    const list = state.lists[scope];
    if (!list) continue;
    const i = list.sessions.findIndex((s) => s.path === path);
    if (i < 0) {
      lists[scope] = list;
      continue;
    }
    const old = list.sessions[i] as SessionInfo;
    const next = update(old);
    const sessions = [...list.sessions];
    if (next) sessions[i] = next;
    else sessions.splice(i, 1);
    lists[scope] = { ...list, sessions };
    changed = true;
  }
  return changed ? { ...state, lists } : state;
}

export function mergeList(state: PickerState, scope: Scope, patch: Partial<ScopeList>): PickerState {
  const old = state.lists[scope] ?? { sessions: [], loaded: 0, total: 0, done: false, skipped: 0 };
  return { ...state, lists: { ...state.lists, [scope]: { ...old, ...patch } } };
}
