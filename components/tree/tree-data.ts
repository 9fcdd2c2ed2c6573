/**
 * A session as the tree screen holds it: the file read, its tree, the navigator's index (with the
 * fork rows joined) and its usage totals; and the formats of the detail view.
 */
import { homedir } from 'node:os';
import { formatAbsoluteDate, formatCost, formatTokens } from '../../src/format.js';
import type { LoadedSession, SessionTree, UsageTotals } from '../../src/store/index.js';
import type { DetailFormat } from '../../src/tree/entry-detail.js';
import { buildIndex, type TreeIndex } from '../../src/tree/flatten.js';
import type { ForkLink } from '../../src/tree/fork-nodes.js';
import type { TreeStore } from './TreeScreen.js';

export const FORMAT: DetailFormat = {
  tokens: formatTokens,
  cost: formatCost,
  date: (iso) => {
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? iso : `${formatAbsoluteDate(ms)} (${iso})`;
  },
};

export interface Loaded {
  session: LoadedSession;
  tree: SessionTree;
  index: TreeIndex;
  totals: UsageTotals;
}

export function load(
  store: TreeStore,
  session: LoadedSession,
  previous: TreeIndex | undefined,
  forks: readonly ForkLink[],
): Loaded {
  const tree = store.buildTree(session);
  // Tool-call rows show paths under the home folder as `~/…`, as pi's /tree does.
  const home = homedir();
  const index = buildIndex(tree, previous ? { texts: previous.texts, forks, home } : { forks, home });
  return { session, tree, index, totals: store.sessionUsage(tree) };
}
