/**
 * pi's own configuration that pi-sessions follows: `treeFilterMode` from `settings.json`
 * (global `<agentDir>/settings.json`, then the project's `<cwd>/.pi/settings.json` on top, as pi
 * merges them) and `<agentDir>/keybindings.json`; and pi-sessions' own settings, under its own key
 * in the same files (`"pi-sessions": {"mouse": false}`; pi keeps keys it does not know when it
 * saves its settings), so they reach pi-sessions inside pi too, where no flag can be passed. Reading never fails: a missing, unreadable,
 * oversized or malformed file is pi's defaults, plus a problem line the caller may show.
 */
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import { isObject } from './entry.js';
import { describeFsError, StoreError } from './errors.js';
import { readIntoSync } from './read/read-at.js';
import { openRegularSync } from './read/regular-file.js';
import type { JsonObject } from './types.js';

/** pi's tree filter names (its `treeFilterMode` setting). */
export const TREE_FILTER_MODES = ['default', 'no-tools', 'user-only', 'labeled-only', 'all'] as const;
export type TreeFilterSetting = (typeof TREE_FILTER_MODES)[number];

/** A settings file larger than this is not a settings file (and reading it must stay cheap). */
const MAX_CONFIG_BYTES = 1024 * 1024;

export type JsonFileRead = { ok: true; value: JsonObject } | { ok: false; missing: boolean; problem: string };

/** One JSON object from a small regular file; never throws, never blocks on a FIFO. */
export function readJsonObjectFile(file: string): JsonFileRead {
  let fd: number | undefined;
  try {
    const opened = openRegularSync(file);
    fd = opened.fd;
    if (opened.stats.size > MAX_CONFIG_BYTES)
      return { ok: false, missing: false, problem: `${file}: larger than 1 MB, ignored` };
    const buffer = Buffer.alloc(opened.stats.size);
    const got = readIntoSync(fd, buffer, 0);
    // pi strips a byte-order mark before parsing (utils/text.js stripBom), so an editor's BOM is fine.
    const parsed: unknown = JSON.parse(
      buffer
        .subarray(0, got)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
    return isObject(parsed)
      ? { ok: true, value: parsed }
      : { ok: false, missing: false, problem: `${file}: not a JSON object, ignored` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true, problem: '' };
    // A StoreError (not a regular file) already names the file.
    if (error instanceof StoreError) return { ok: false, missing: false, problem: `${error.message}, ignored` };
    const reason = error instanceof SyntaxError ? 'not valid JSON' : describeFsError(error);
    return { ok: false, missing: false, problem: `${file}: ${reason}, ignored` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** pi-sessions' own key in pi's settings files. */
export const OWN_SETTINGS_KEY = 'pi-sessions';

export interface PiConfig {
  treeFilterMode: TreeFilterSetting;
  /** `"pi-sessions": {"mouse": false}` turns mouse reporting off (the terminal keeps its own text selection); default on. */
  mouse: boolean;
  /** keybindings.json as parsed ({} when absent or unusable); src/keymap/pi-keybindings.ts reads it as pi does. */
  keybindings: JsonObject;
  /** One line per file that exists but could not be used. */
  problems: string[];
}

export function readPiConfig(agentDir: string, cwd: string): PiConfig {
  const problems: string[] = [];
  let treeFilterMode: TreeFilterSetting = 'default';
  let mouse = true;
  // Global first, the project's on top: the later file wins, as in pi's settings merge.
  for (const file of [join(agentDir, 'settings.json'), join(cwd, '.pi', 'settings.json')]) {
    const read = readJsonObjectFile(file);
    if (!read.ok) {
      if (!read.missing) problems.push(read.problem);
      continue;
    }
    const mode = read.value['treeFilterMode'];
    if (typeof mode === 'string' && (TREE_FILTER_MODES as readonly string[]).includes(mode))
      treeFilterMode = mode as TreeFilterSetting;
    else if (mode !== undefined)
      problems.push(
        `${file}: treeFilterMode ${JSON.stringify(mode)} is not one of ${TREE_FILTER_MODES.join(', ')}, ignored`,
      );
    const own = read.value[OWN_SETTINGS_KEY];
    if (own !== undefined && !isObject(own)) problems.push(`${file}: "${OWN_SETTINGS_KEY}" is not an object, ignored`);
    const ownMouse = isObject(own) ? own['mouse'] : undefined;
    if (typeof ownMouse === 'boolean') mouse = ownMouse;
    else if (ownMouse !== undefined)
      problems.push(`${file}: "${OWN_SETTINGS_KEY}".mouse ${JSON.stringify(ownMouse)} is not true or false, ignored`);
  }
  const bindings = readJsonObjectFile(join(agentDir, 'keybindings.json'));
  if (!bindings.ok && !bindings.missing) problems.push(bindings.problem);
  return { treeFilterMode, mouse, keybindings: bindings.ok ? bindings.value : {}, problems };
}
