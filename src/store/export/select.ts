/**
 * What an export holds: one branch (root → the chosen entry, default the leaf: the path pi resumes)
 * or every branch, each leaf's own segment after the part already shown. Read with the one reader
 * and tree builder; an entry whose line was too long to read whole is refused (its text is cut).
 */
import { resolve } from 'node:path';
import { StoreError } from '../errors.js';
import { readSession } from '../read/read.js';
import { cutLineOf, describeTooLarge } from '../read/too-large.js';
import { buildTree, getBranch, type SessionTree } from '../tree.js';
import type { LoadedSession, SessionEntry } from '../types.js';

export interface ExportBranch {
  /** The last entry of the branch. */
  leafId: string;
  /** The entries shown for it: the whole path for the first branch, the own segment for the others. */
  entries: SessionEntry[];
  /** The entry the segment continues from (already shown in an earlier branch); null for a whole path. */
  continuesFrom: string | null;
  /** The branch pi resumes. */
  active: boolean;
}

export interface ExportSelection {
  path: string;
  session: LoadedSession;
  tree: SessionTree;
  /** One branch, or every branch (active first, then in file order of their leaves). */
  branches: ExportBranch[];
  /** Every branch was asked for (a JSONL export is then the whole file). */
  allBranches: boolean;
  /** Every exported entry with its 1-based file line (what the secret scan reads). */
  entries: { entry: SessionEntry; line: number }[];
}

export interface ExportScope {
  /** The entry the branch ends at (default: the leaf). */
  leaf?: string;
  allBranches?: boolean;
}

/** Entries with no child: the ends of branches, in file order. */
function leavesOf(tree: SessionTree): SessionEntry[] {
  return tree.order.filter((entry) => (tree.children.get(entry.id)?.length ?? 0) === 0);
}

/** Reads `path` and picks what `scope` exports. */
export async function selectForExport(path: string, scope: ExportScope = {}): Promise<ExportSelection> {
  const real = resolve(path);
  const session = await readSession(real);
  if (!session.ok) throw new StoreError('not-a-session', `cannot export ${real}: ${session.message}`);
  const tree = buildTree(session);
  if (scope.leaf !== undefined && !tree.byId.has(scope.leaf))
    throw new StoreError('no-entry', `no entry ${scope.leaf} in ${real}`);
  const activeLeaf = tree.leafId;
  const branches: ExportBranch[] = [];
  if (!scope.allBranches) {
    const leafId = scope.leaf ?? activeLeaf;
    if (leafId !== null)
      branches.push({
        leafId,
        entries: getBranch(tree, leafId),
        continuesFrom: null,
        active: leafId === activeLeaf,
      });
  } else {
    const leaves = leavesOf(tree);
    const active = leaves.find((leaf) => leaf.id === activeLeaf);
    const ordered = active ? [active, ...leaves.filter((leaf) => leaf !== active)] : leaves;
    const shown = new Set<string>();
    for (const leaf of ordered) {
      const path = getBranch(tree, leaf.id);
      let start = 0;
      while (start < path.length && shown.has(path[start]!.id)) start++;
      for (const entry of path) shown.add(entry.id);
      branches.push({
        leafId: leaf.id,
        entries: path.slice(start),
        continuesFrom: start > 0 ? path[start - 1]!.id : null,
        active: leaf.id === activeLeaf,
      });
    }
  }
  const lineOf = new Map<SessionEntry, number>();
  session.entries.forEach((entry, i) => {
    lineOf.set(entry, session.entryLines[i]!);
  });
  const entries = branches.flatMap((b) => b.entries.map((entry) => ({ entry, line: lineOf.get(entry) ?? 0 })));
  for (const { entry } of entries) {
    const cut = cutLineOf(entry);
    if (cut)
      throw new StoreError(
        'too-large',
        `cannot export ${real}: ${describeTooLarge(cut)}, too large to read whole (its text would be cut)`,
      );
  }
  return { path: real, session, tree, branches, entries, allBranches: scope.allBranches === true };
}
