/**
 * The real pi 1.6.0 SessionManager (a devDependency), used as an oracle: files we write must load
 * in pi with the leaf, name, labels and context we intend. pi's package index needs Node 22, so we
 * import the session-manager module by path, as the corpus oracle did. pi may write on open
 * (newline repair, migration), so it always gets a copy.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './corpus.js';
import { tempDir } from './factory.js';

interface PiSessionManager {
  getLeafId(): string | null;
  getSessionName(): string | undefined;
  getLabel(id: string): string | undefined;
  getHeader(): Record<string, unknown> | null;
  getEntries(): { id: string; parentId: string | null; type: string }[];
  getBranch(fromId?: string): { id: string }[];
  getTree(): { entry: { id: string }; children: unknown[]; label?: string; labelTimestamp?: string }[];
  buildSessionContext(): { messages: Record<string, unknown>[]; thinkingLevel: string; model: unknown };
  /** pi's /fork and /clone: a new file in the session dir with the branch to `leafId`; its path. */
  createBranchedSession(leafId: string): string | undefined;
  /** Appends a `label` entry (undefined clears) to the current file; its id. */
  appendLabelChange(targetId: string, label: string | undefined): string;
}

interface PiModule {
  SessionManager: { open(path: string, sessionDir?: string, cwdOverride?: string): PiSessionManager };
  buildSessionContext(
    entries: unknown[],
    leafId: string | null,
    byId?: unknown,
  ): { messages: Record<string, unknown>[] };
}

let loaded: Promise<PiModule> | undefined;

export function piModule(): Promise<PiModule> {
  const path = join(
    REPO_ROOT,
    'node_modules',
    '@earendil-works',
    'pi-coding-agent',
    'dist',
    'core',
    'session-manager.js',
  );
  loaded ??= import(pathToFileURL(path).href) as Promise<PiModule>;
  return loaded;
}

export interface PiView {
  manager: PiSessionManager;
  /** Whether pi changed the copy while opening it (it must not, for files we wrote). */
  changedOnOpen: boolean;
}

/** Opens a copy of `path` with pi 1.6.0. */
export async function openWithPi(path: string): Promise<PiView> {
  const { SessionManager } = await piModule();
  const dir = tempDir('pi-oracle-');
  const copy = join(dir, basename(path));
  copyFileSync(path, copy);
  const before = readFileSync(copy);
  const manager = SessionManager.open(copy, dir, '/');
  return { manager, changedOnOpen: !readFileSync(copy).equals(before) };
}

/** pi's context for an arbitrary leaf of an opened session. */
export async function piContextAt(
  manager: PiSessionManager,
  leafId: string | null,
): Promise<Record<string, unknown>[]> {
  const { buildSessionContext } = await piModule();
  return buildSessionContext(manager.getEntries(), leafId).messages;
}
