/**
 * Which machine wrote a session, where that can be known (pure): a conflict copy's name carries
 * the device that wrote it (Syncthing's short device id, Dropbox's "<who>'s conflicted copy"),
 * and a path mapping can name the machine its `from` paths come from. Nothing else in a session
 * file says where it was written.
 */
import { basename } from 'node:path';
import { hostOfPath, type PathMap } from '../path-map.js';
import { parseConflictName } from './conflict-names.js';

export function sessionHost(path: string, cwd: string, pathMap: PathMap): string | undefined {
  const device = parseConflictName(basename(path))?.device;
  if (device !== undefined) return device;
  return cwd === '' ? undefined : hostOfPath(pathMap, cwd);
}
