/**
 * Mappings `check` suggests (pure; the file system is asked through `exists`). When most sessions
 * of a project were recorded in a folder that is missing here, and the end of that folder's path
 * exists under this machine's home, the store was most likely synced from a machine whose home
 * was elsewhere: `/Users/ana/code/app` missing and `/home/ana/code/app` present suggest
 * `/Users/ana` → `/home/ana`.
 */
import { mapPath, normalPrefix, type PathMap } from './path-map.js';

export interface PathSuggestion {
  from: string;
  to: string;
  /** How many sessions it would map. */
  sessions: number;
  /** One recorded folder it maps, and where it then is. */
  example: { cwd: string; mapped: string };
}

export interface SuggestionInputs {
  /** Each session's project (its folder in the store) and recorded cwd ('' when it has none). */
  sessions: readonly { project: string; cwd: string }[];
  /** This machine's home folder, where a synced home's sub-folders are looked for. */
  home: string;
  /** The mappings already made: a folder they map to an existing one needs nothing more. */
  pathMap: PathMap;
  /** Whether a folder exists here. */
  exists(path: string): boolean;
}

function components(path: string): string[] {
  return path.split(/[\\/]/).filter((part) => part !== '');
}

/**
 * The mapping for one missing folder: the shortest missing prefix whose tail exists under `home`
 * (the longest tail that does), never the root itself. Only POSIX paths: a Windows folder has no
 * one home to put in its place.
 */
function suggestionFor(cwd: string, home: string, exists: (path: string) => boolean): [string, string] | undefined {
  if (!cwd.startsWith('/')) return undefined;
  const parts = components(cwd);
  const base = normalPrefix(home);
  // A folder recorded under this home was moved here, not written on another machine.
  if (cwd === base || cwd.startsWith(`${base}/`)) return undefined;
  for (let cut = 1; cut < parts.length; cut++) {
    const from = `/${parts.slice(0, cut).join('/')}`;
    if (exists(from)) continue;
    const target = `${base === '/' ? '' : base}/${parts.slice(cut).join('/')}`;
    if (exists(target)) return [from, base];
  }
  return undefined;
}

/** The mappings worth making, the most sessions first. */
export function suggestPathMappings(inputs: SuggestionInputs): PathSuggestion[] {
  const byProject = new Map<string, string[]>();
  for (const { project, cwd } of inputs.sessions) byProject.set(project, [...(byProject.get(project) ?? []), cwd]);
  const found = new Map<string, PathSuggestion>();
  const memo = new Map<string, [string, string] | undefined>();
  for (const cwds of byProject.values()) {
    const votes = new Map<string, { pair: [string, string]; cwds: string[] }>();
    for (const cwd of cwds) {
      if (cwd === '' || inputs.exists(mapPath(inputs.pathMap, cwd))) continue;
      if (!memo.has(cwd)) memo.set(cwd, suggestionFor(cwd, inputs.home, inputs.exists));
      const pair = memo.get(cwd);
      if (pair === undefined) continue;
      const key = pair.join('\0');
      const vote = votes.get(key) ?? { pair, cwds: [] };
      vote.cwds.push(cwd);
      votes.set(key, vote);
    }
    for (const [key, vote] of votes) {
      // Most of the project's sessions, not a stray one that happens to look like it.
      if (vote.cwds.length * 2 <= cwds.length) continue;
      const [from, to] = vote.pair;
      const cwd = vote.cwds[0]!;
      const known = found.get(key);
      if (known) known.sessions += vote.cwds.length;
      else
        found.set(key, { from, to, sessions: vote.cwds.length, example: { cwd, mapped: to + cwd.slice(from.length) } });
    }
  }
  return [...found.values()].sort((a, b) => b.sessions - a.sessions || a.from.localeCompare(b.from));
}
