/**
 * pi-sessions' own settings, `<agentDir>/pi-sessions.json` (beside pi's settings.json, which is
 * pi's to write): `{"pathMap": [{"from", "to", "host"?}]}`. Read once at start-up; reading never
 * fails (a missing file has no mappings; a broken one gives one line saying why, and none).
 * `savePathMapping` rewrites the file atomically and keeps every other key in it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeFsError, StoreError } from './errors.js';
import {
  isAbsolutePathText,
  normalPrefix,
  type PathMap,
  type PathMapping,
  parsePathMap,
  withMapping,
} from './path-map.js';
import { readJsonObjectFile } from './pi-settings.js';
import { openRegularSync } from './read/regular-file.js';

export const SETTINGS_FILE_NAME = 'pi-sessions.json';

export function settingsFileOf(agentDir: string): string {
  return join(agentDir, SETTINGS_FILE_NAME);
}

export interface SessionsSettings {
  pathMap: PathMap;
  /** One line per thing in the file that could not be used. */
  problems: string[];
}

export function readSessionsSettings(agentDir: string): SessionsSettings {
  const file = settingsFileOf(agentDir);
  const read = readJsonObjectFile(file);
  if (!read.ok) return { pathMap: [], problems: read.missing ? [] : [read.problem] };
  const parsed = parsePathMap(read.value['pathMap'], file);
  return { pathMap: parsed.map, problems: parsed.problems };
}

/**
 * Adds `mapping` (or replaces the one with its `from`) and returns it as saved (its paths without
 * trailing separators).
 * Refused, with the file unchanged, when a path is relative or the file cannot be read as JSON
 * (rewriting it would lose what the user wrote).
 */
export function savePathMapping(agentDir: string, mapping: PathMapping): PathMapping {
  for (const [name, path] of [
    ['FROM', mapping.from],
    ['TO', mapping.to],
  ] as const)
    if (!isAbsolutePathText(path)) throw new StoreError('bad-input', `${name} must be an absolute path: ${path}`);
  if (mapping.host !== undefined && mapping.host.trim() === '')
    throw new StoreError('bad-input', '--host needs a name');
  const file = settingsFileOf(agentDir);
  const read = readJsonObjectFile(file);
  if (!read.ok && !read.missing)
    throw new StoreError('bad-input', `${read.problem.replace(/, ignored$/, '')}; fix or remove it first`);
  const settings = read.ok ? read.value : {};
  const current = parsePathMap(settings['pathMap'], file);
  if (current.problems.length > 0)
    throw new StoreError('bad-input', `${current.problems[0]!.replace(/, ignored$/, '')}; fix it first`);
  const pathMap = withMapping(current.map, mapping);
  writeAtomically(file, `${JSON.stringify({ ...settings, pathMap }, null, 2)}\n`);
  return pathMap.find((m) => m.from === normalPrefix(mapping.from))!;
}

/** A temp file beside `file`, fsynced, then renamed over it: the file is whole, old or new. */
function writeAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${SETTINGS_FILE_NAME}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    ({ fd } = openRegularSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644));
  } catch (error) {
    throw new StoreError('write-failed', `cannot write ${file}: ${describeFsError(error)}`);
  }
  let renamed = false;
  try {
    try {
      const bytes = Buffer.from(text);
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    renamed = true;
  } catch (error) {
    throw new StoreError('write-failed', `cannot write ${file}: ${describeFsError(error)}; it is unchanged`);
  } finally {
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        // Never created, or already gone.
      }
    }
  }
}
