/**
 * Where pi keeps sessions (session-format.md §1), resolved exactly as pi 1.6.0 does, without
 * creating anything: pi runs `mkdir -p` on the per-cwd folder; a browser must not.
 */
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mapPath, otherMachineForms, type PathMap } from './path-map.js';
import { readJsonObjectFile } from './pi-settings.js';

export interface Locations {
  /** The resolved working directory whose sessions are "current". */
  cwd: string;
  agentDir: string;
  /** `<agentDir>/sessions`: one folder per cwd. */
  sessionsRoot: string;
  /** Where the current cwd's sessions are: the per-cwd folder, or a flat custom dir. */
  sessionDir: string;
  /** True for `--session-dir`, the env var or the `sessionDir` setting (flat, mixed projects). */
  customDir: boolean;
  /** Which source gave `sessionDir`, for messages ("looked in …, set by …"). */
  source: 'flag' | 'env' | 'project-settings' | 'global-settings' | 'default';
  /**
   * Path prefixes of other machines mapped to this one (pi-sessions.json, read at start-up by the
   * CLI): "this folder" takes the sessions recorded under a mapped form of `cwd`. None when absent.
   */
  pathMap?: PathMap;
}

export interface LocationInputs {
  cwd?: string;
  sessionDir?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** `~`, `~/…` and `file://` expansion, as pi's resolvePath does (no `path.resolve` here). */
export function expandPath(input: string, home = homedir()): string {
  let path = input;
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      // Not a valid file URL: use it as written.
    }
  }
  if (path === '~') return home;
  if (path.startsWith('~/') || (process.platform === 'win32' && path.startsWith('~\\')))
    return join(home, path.slice(2));
  return path;
}

/** pi's folder name for a cwd: `/home/u/proj` → `--home-u-proj--` (lossy; never decode it). */
export function encodeCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** The `sessionDir` of a settings file; a missing, non-regular (FIFO), huge or malformed file has none. */
function readSetting(file: string): string | undefined {
  const read = readJsonObjectFile(file);
  // Not readable: pi falls back to the next source.
  const value = read.ok ? read.value['sessionDir'] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function resolveLocations(inputs: LocationInputs = {}): Locations {
  const env = inputs.env ?? process.env;
  const home = inputs.home ?? homedir();
  const cwd = resolve(expandPath(inputs.cwd ?? process.cwd(), home));
  const agentEnv = env['PI_CODING_AGENT_DIR'];
  const agentDir = agentEnv ? expandPath(agentEnv, home) : join(home, '.pi', 'agent');
  const sessionsRoot = join(agentDir, 'sessions');

  let sessionDir: string | undefined;
  let source: Locations['source'] = 'default';
  if (inputs.sessionDir) {
    sessionDir = expandPath(inputs.sessionDir, home);
    source = 'flag';
  } else if (env['PI_CODING_AGENT_SESSION_DIR']) {
    sessionDir = expandPath(env['PI_CODING_AGENT_SESSION_DIR'], home);
    source = 'env';
  } else {
    // The project's .pi/settings.json wins over the global one (deep merge, project last).
    const projectValue = readSetting(join(cwd, '.pi', 'settings.json'));
    const globalValue = readSetting(join(agentDir, 'settings.json'));
    if (projectValue) {
      sessionDir = expandPath(projectValue, home);
      source = 'project-settings';
    } else if (globalValue) {
      sessionDir = expandPath(globalValue, home);
      source = 'global-settings';
    }
  }
  const defaultDir = join(resolve(sessionsRoot), encodeCwd(cwd));
  if (sessionDir === undefined)
    return { cwd, agentDir, sessionsRoot, sessionDir: defaultDir, customDir: false, source };
  // Relative custom dirs resolve against our working directory, as they do for pi.
  const absolute = resolve(sessionDir);
  // A custom dir equal to the default per-cwd folder behaves like the default (no cwd filter).
  const customDir = absolute !== defaultDir;
  return { cwd, agentDir, sessionsRoot, sessionDir: absolute, customDir, source };
}

/** True when `child` is `parent` or below it. */
export function isPathWithin(parent: string, child: string): boolean {
  const p = resolve(parent);
  const c = resolve(child);
  return c === p || c.startsWith(p.endsWith(sep) ? p : p + sep);
}

/** A session's recorded cwd as it is on this machine (the path map applied). */
export function localCwd(locations: Locations, cwd: string): string {
  return locations.pathMap === undefined || cwd === '' ? cwd : mapPath(locations.pathMap, cwd);
}

/**
 * The per-cwd folders that hold "this folder"'s sessions: pi's own, then (default layout only)
 * the folders pi on another machine made for the paths that map to `cwd` here.
 */
export function cwdSessionDirs(locations: Locations): string[] {
  if (locations.customDir || locations.pathMap === undefined) return [locations.sessionDir];
  const dirs = [locations.sessionDir];
  for (const form of otherMachineForms(locations.pathMap, locations.cwd)) {
    const dir = join(resolve(locations.sessionsRoot), encodeCwd(form));
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  return dirs;
}
