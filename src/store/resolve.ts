/**
 * `<session>` arguments, as pi's `--session` reads them (session-format.md §1.5): a path when it
 * has a slash or ends in `.jsonl`; otherwise an exact id, then a unique id prefix, first in the
 * current project, then across all projects.
 */
import { type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { StoreError } from './errors.js';
import type { Locations } from './locations.js';
import { notRegularFile } from './read/regular-file.js';
import { listSessions } from './summary/list.js';
import type { SessionInfo } from './types.js';

export function looksLikePath(arg: string): boolean {
  return arg.includes('/') || arg.includes('\\') || arg.endsWith('.jsonl');
}

function pick(sessions: SessionInfo[], arg: string): SessionInfo | 'ambiguous' | undefined {
  const exact = sessions.filter((s) => s.id === arg);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1) return 'ambiguous';
  const prefixed = sessions.filter((s) => s.id.startsWith(arg));
  if (prefixed.length === 1) return prefixed[0];
  return prefixed.length > 1 ? 'ambiguous' : undefined;
}

export async function resolveSessionArg(arg: string, locations: Locations): Promise<string> {
  if (arg === '') throw new StoreError('bad-input', 'empty session argument');
  if (looksLikePath(arg)) {
    const path = resolve(arg);
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch {
      throw new StoreError('not-found', `${path}: no such session file`);
    }
    // A FIFO, a device or a folder is refused here, before any screen opens (stat never blocks).
    if (!stats.isFile()) throw notRegularFile(path, stats);
    return path;
  }
  for (const scope of ['cwd', 'all'] as const) {
    // Only ids and paths are read here: the search fields are left to the file.
    const { sessions } = await listSessions(locations, { scope, searchFields: 'on-demand' });
    const found = pick(sessions, arg);
    if (found === 'ambiguous') {
      const matches = sessions.filter((s) => s.id.startsWith(arg)).map((s) => s.path);
      throw new StoreError(
        'ambiguous',
        `"${arg}" matches ${matches.length} sessions; give more of the id or a path (${matches.slice(0, 3).join(', ')}${matches.length > 3 ? ', …' : ''})`,
      );
    }
    if (found) return found.path;
  }
  throw new StoreError(
    'not-found',
    `no session with id or id prefix "${arg}" (looked in ${locations.customDir ? locations.sessionDir : locations.sessionsRoot})`,
  );
}
