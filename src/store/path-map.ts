/**
 * Path prefixes of another machine mapped to this one (pure). A store synced from a Mac to Linux
 * holds `cwd` and `parentSession` paths like `/Users/ana/…` that do not exist here; a mapping
 * `/Users/ana` → `/home/ana` says where they are. The longest matching `from` wins, and only whole
 * path components match (`/Users/an` never maps `/Users/ana`). The settings file that holds the
 * mappings is read and written by path-settings.ts.
 */

export interface PathMapping {
  /** A prefix of paths written on another machine (absolute, no trailing separator). */
  from: string;
  /** Where that prefix is on this machine (absolute). */
  to: string;
  /** The other machine's name, shown as where its sessions were written. */
  host?: string;
}

export type PathMap = readonly PathMapping[];

/** POSIX `/…`, a Windows drive `C:\…` or `C:/…`, or a UNC `\\server\…`. */
export function isAbsolutePathText(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/** A prefix as it is compared: without trailing separators (the root itself stays `/`). */
export function normalPrefix(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed === '' ? path.slice(0, 1) : trimmed;
}

/** The rest of `path` after `prefix` when `prefix` is whole components of it ('' for the same path). */
function tailAfter(prefix: string, path: string): string | undefined {
  const p = normalPrefix(prefix);
  if (path === p) return '';
  if (p === '/' || p === '\\') return path.startsWith(p) ? path.slice(1) : undefined;
  if (!path.startsWith(p)) return undefined;
  const next = path[p.length];
  return next === '/' || next === '\\' ? path.slice(p.length + 1) : undefined;
}

/** `base` joined with `tail`, the tail's separators written as `base` writes its own. */
function joinTail(base: string, tail: string): string {
  if (tail === '') return base;
  const windows = !base.includes('/') && base.includes('\\');
  const rest = windows ? tail.replaceAll('/', '\\') : tail.replaceAll('\\', '/');
  const sep = windows ? '\\' : '/';
  return base.endsWith(sep) ? base + rest : base + sep + rest;
}

/** The mapping with the longest `from` that `path` lies under, if any. */
export function mappingFor(map: PathMap, path: string): PathMapping | undefined {
  let best: PathMapping | undefined;
  for (const mapping of map) {
    if (tailAfter(mapping.from, path) === undefined) continue;
    if (best === undefined || normalPrefix(mapping.from).length > normalPrefix(best.from).length) best = mapping;
  }
  return best;
}

/** `path` as it is on this machine: its longest mapped prefix replaced, else unchanged. */
export function mapPath(map: PathMap, path: string): string {
  const mapping = mappingFor(map, path);
  if (mapping === undefined) return path;
  return joinTail(normalPrefix(mapping.to), tailAfter(mapping.from, path)!);
}

/**
 * The paths another machine wrote for this machine's `path`: for each mapping whose `to` holds
 * it, the same tail under its `from` (a session recorded there maps to `path`). Only the forms
 * that map back to `path` count: a longer `from` elsewhere may take them.
 */
export function otherMachineForms(map: PathMap, path: string): string[] {
  const forms: string[] = [];
  for (const mapping of map) {
    const tail = tailAfter(mapping.to, path);
    if (tail === undefined) continue;
    const form = joinTail(normalPrefix(mapping.from), tail);
    if (form !== path && mapPath(map, form) === path && !forms.includes(form)) forms.push(form);
  }
  return forms;
}

/** The machine a path was written on, where a mapping names it (the longest matching mapping with a host). */
export function hostOfPath(map: PathMap, path: string): string | undefined {
  let best: PathMapping | undefined;
  for (const mapping of map) {
    if (mapping.host === undefined || tailAfter(mapping.from, path) === undefined) continue;
    if (best === undefined || normalPrefix(mapping.from).length > normalPrefix(best.from).length) best = mapping;
  }
  return best?.host;
}

/** `map` with `mapping` added, or in place of the one with the same `from`. */
export function withMapping(map: PathMap, mapping: PathMapping): PathMapping[] {
  const from = normalPrefix(mapping.from);
  const entry: PathMapping = {
    from,
    to: normalPrefix(mapping.to),
    ...(mapping.host !== undefined ? { host: mapping.host } : {}),
  };
  const at = map.findIndex((m) => normalPrefix(m.from) === from);
  return at < 0 ? [...map, entry] : map.map((m, i) => (i === at ? entry : m));
}

export interface ParsedPathMap {
  map: PathMapping[];
  /** One line per entry that was left out, naming why. */
  problems: string[];
}

/** The `pathMap` value of the settings file: each usable entry, and a line for each that is not. */
export function parsePathMap(value: unknown, file: string): ParsedPathMap {
  if (value === undefined) return { map: [], problems: [] };
  if (!Array.isArray(value)) return { map: [], problems: [`${file}: pathMap is not a list, ignored`] };
  const map: PathMapping[] = [];
  const problems: string[] = [];
  value.forEach((item: unknown, index) => {
    const where = `${file}: pathMap[${index}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push(`${where} is not an object, ignored`);
      return;
    }
    const { from, to, host } = item as Record<string, unknown>;
    if (typeof from !== 'string' || typeof to !== 'string' || !isAbsolutePathText(from) || !isAbsolutePathText(to)) {
      problems.push(`${where} needs "from" and "to" as absolute paths, ignored`);
      return;
    }
    if (host !== undefined && (typeof host !== 'string' || host.trim() === '')) {
      problems.push(`${where}: "host" is not a name, ignored`);
      return;
    }
    map.push({ from: normalPrefix(from), to: normalPrefix(to), ...(host !== undefined ? { host: host.trim() } : {}) });
  });
  return { map, problems };
}
