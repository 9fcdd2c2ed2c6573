/**
 * The picker's search index (pure): what every keystroke's search (query-engine.ts) needs that
 * depends only on the session list, made once per list, and the substring scans of the prepared
 * texts, cached per pattern.
 *
 * Sessions are numbered by their position in the list: a search keeps its candidates, scores and
 * text hits in arrays by position, because a map lookup per session per term was most of a
 * keystroke over 10,000 sessions. The cwds are numbered too: a list has a few distinct folders
 * for thousands of sessions, so whatever a term asks of a cwd is asked once per folder.
 */
import { type PathMap, type SessionInfo, sessionHost } from '../store/index.js';
import { createFuzzyIndex, type FuzzyIndex } from './query-fuzzy.js';
import { isTextPrepared, textOf } from './query-text.js';
import type { RegexCache } from './regex-search.js';
import type { TextHit } from './session-match.js';
import { type Parents, parentsIn } from './sort.js';

/**
 * Where a pattern occurs first in the prepared texts of the sessions it occurs in: their
 * positions in the list, ascending, and each one's first occurrence (one object per session and
 * pattern, which every search of the pattern hands on as its text hit, rather than a new one each
 * keystroke).
 */
export interface TextHits {
  readonly positions: readonly number[];
  readonly hits: readonly TextHit[];
}

const PATTERN_CACHE_SIZE = 48;

export interface SearchIndex {
  readonly sessions: readonly SessionInfo[];
  /** Lower-cased name ('' when unnamed), cwd and id of each session, by position. */
  readonly names: readonly string[];
  readonly cwds: readonly string[];
  readonly ids: readonly string[];
  /** Every UTF-16 unit of every id: a pattern with another one is in no id. */
  readonly idCharacters: ReadonlySet<string>;
  /** 0 … n-1: the candidates of a query without field filters. */
  readonly everyPosition: readonly number[];
  /**
   * Whether the list is newest first (`modified`, never increasing), as listings are: matches in
   * its order then need no sort by recency (sort.ts).
   */
  readonly newestFirst: boolean;
  /** Each session's folder, as a number into `folders` (by position). */
  readonly folderOf: Int32Array;
  /** The list's distinct cwds as recorded, and lower-cased (`folderTexts`), numbered in order of first use. */
  readonly folders: readonly string[];
  readonly folderTexts: readonly string[];
  /** Fuzzy matching of names and cwds (query-fuzzy.ts). */
  readonly fuzzy: FuzzyIndex;
  /**
   * Each session's prepared text by position, once a scan has read it: a scan visits every session
   * for every pattern, and two WeakMap lookups per visit (prepared yet? its text) were a tenth of a
   * keystroke's search.
   */
  readonly texts: (string | undefined)[];
  /** Complete substring scans of the prepared text, per pattern (insertion order = age). */
  readonly patternCache: Map<string, TextHits>;
  /** What each `re:` pattern found in each session so far (regex-search.ts). */
  readonly regexCache: RegexCache;
  /** Each session's parent in the list, for the threaded sort (made once: every keystroke needs it). */
  readonly parents: Parents;
  /** The lower-cased machine each session was written on, where known (`host:`). */
  readonly hosts: ReadonlyMap<SessionInfo, string>;
  /** The path map the parents and hosts were found with (a new map needs a new index). */
  readonly pathMap: PathMap;
}

/**
 * Builds the per-list index (fuse over names and distinct cwds). Build it once per session list.
 * `pathMap`: other machines' path prefixes mapped to this one (forks nest under a parent recorded
 * under a mapped path; a mapping's host is where its sessions were written).
 */
export function createSearchIndex(sessions: readonly SessionInfo[], pathMap: PathMap = []): SearchIndex {
  const hosts = new Map<SessionInfo, string>();
  for (const info of sessions) {
    const host = sessionHost(info.path, info.cwd, pathMap);
    if (host !== undefined) hosts.set(info, host.toLowerCase());
  }
  const names = sessions.map((s) => (s.name ?? '').toLowerCase());
  const cwds = sessions.map((s) => s.cwd.toLowerCase());
  const folderNumbers = new Map<string, number>();
  const folderOf = new Int32Array(sessions.length);
  sessions.forEach((info, i) => {
    let folder = folderNumbers.get(info.cwd);
    if (folder === undefined) {
      folder = folderNumbers.size;
      folderNumbers.set(info.cwd, folder);
    }
    folderOf[i] = folder;
  });
  const folders = [...folderNumbers.keys()];
  const ids = sessions.map((s) => s.id.toLowerCase());
  const idCharacters = new Set<string>();
  // UTF-16 units, not code points: a pattern's units are all among those of an id that contains it.
  for (const id of ids) for (let k = 0; k < id.length; k++) idCharacters.add(id[k]!);
  return {
    sessions,
    names,
    cwds,
    ids,
    idCharacters,
    everyPosition: sessions.map((_, i) => i),
    newestFirst: sessions.every((info, i) => i === 0 || sessions[i - 1]!.modified.getTime() >= info.modified.getTime()),
    folderOf,
    folders,
    folderTexts: folders.map((cwd) => cwd.toLowerCase()),
    fuzzy: createFuzzyIndex(sessions, names),
    texts: new Array<string | undefined>(sessions.length).fill(undefined),
    patternCache: new Map(),
    regexCache: new Map(),
    parents: parentsIn(sessions, pathMap),
    hosts,
    pathMap,
  };
}

/** What a text scan is asked for: which sessions, and what to do with unprepared ones. */
export interface TextScan {
  /** Positions to look in, ascending. */
  readonly candidates: readonly number[];
  /** Whether the query has no field filter: then the whole list is scanned, and a complete scan cached. */
  readonly whole: boolean;
  /** Skip sessions whose text is not prepared yet (into `skipped`) instead of preparing it. */
  readonly preparedOnly: boolean;
  readonly skipped: Set<SessionInfo>;
}

/**
 * Finds `pattern` in the prepared text of the candidates. A complete scan over the whole list is
 * cached; a cached pattern contained in `pattern` narrows the scan to the sessions it matched
 * (a text containing `pattern` contains every part of it), which is what typing produces.
 */
export function scanText(index: SearchIndex, pattern: string, scan: TextScan): TextHits {
  const cached = index.patternCache.get(pattern);
  if (cached) return cached;
  let narrowest: TextHits | undefined;
  let narrowestKey = '';
  for (const [key, entry] of index.patternCache) {
    if (key.length > narrowestKey.length && pattern.includes(key)) {
      narrowest = entry;
      narrowestKey = key;
    }
  }
  // If `pattern` contains the cached key at offset k, its first occurrence cannot start before
  // (first occurrence of the key) - k: the scan resumes there instead of at 0, so typing one more
  // letter of a word found near the end of long texts doesn't rescan them.
  const keyOffset = narrowest ? pattern.indexOf(narrowestKey) : 0;
  const positions: number[] = [];
  const hits: TextHit[] = [];
  let complete = scan.whole;
  const { texts } = index;
  const visit = (position: number, from: number): void => {
    let text = texts[position];
    if (text === undefined) {
      const info = index.sessions[position]!;
      if (scan.preparedOnly && !isTextPrepared(info)) {
        scan.skipped.add(info);
        complete = false;
        return;
      }
      text = textOf(info);
      texts[position] = text;
    }
    const at = text.indexOf(pattern, from);
    if (at >= 0) {
      positions.push(position);
      hits.push({ start: at, length: pattern.length });
    }
  };
  if (narrowest) {
    const known = narrowest.positions;
    const knownHits = narrowest.hits;
    if (scan.whole)
      for (let k = 0; k < known.length; k++) visit(known[k]!, Math.max(0, knownHits[k]!.start - keyOffset));
    else {
      // Both ascending: one walk through each.
      let k = 0;
      for (const position of scan.candidates) {
        while (k < known.length && known[k]! < position) k++;
        if (k === known.length) break;
        if (known[k] === position) visit(position, Math.max(0, knownHits[k]!.start - keyOffset));
      }
    }
  } else if (scan.whole) {
    // Every session, not only the candidates earlier terms left: the scan is then complete.
    for (let position = 0; position < index.sessions.length; position++) visit(position, 0);
  } else {
    for (const position of scan.candidates) visit(position, 0);
  }
  const found = { positions, hits };
  if (complete) {
    index.patternCache.set(pattern, found);
    if (index.patternCache.size > PATTERN_CACHE_SIZE) {
      const oldest = index.patternCache.keys().next().value;
      if (oldest !== undefined) index.patternCache.delete(oldest);
    }
  }
  return found;
}

/** Whether `pattern` may occur in some session's id (it has no character that none has). */
export function mayBeInIds(index: SearchIndex, pattern: string): boolean {
  for (let k = 0; k < pattern.length; k++) if (!index.idCharacters.has(pattern[k]!)) return false;
  return true;
}
