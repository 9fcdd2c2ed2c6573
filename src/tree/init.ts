/**
 * The navigator's first state for an index: on the leaf (or its nearest visible ancestor),
 * centred, like pi; or on a picker hit, with its search and filter.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import type { FilterMode, TreeIndex } from './flatten.js';
import { buildForest, layoutForest } from './flatten.js';
import type { TreeFocus } from './hit-focus.js';
import { TREE_BINDINGS, type TreeCommand, type TreeKeyMode } from './keymap.js';
import { centerOn, recompute } from './navigation.js';
import { BROWSE, type TreeState, withStatus } from './state.js';

export interface InitOptions {
  index: TreeIndex;
  listHeight: number;
  width: number;
  filter?: FilterMode;
  /** The keymap (default TREE_BINDINGS; pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
  bindings?: readonly KeyBinding<TreeCommand, TreeKeyMode>[];
  /** A line to show in the status until the first key (pi's configuration problems). */
  warning?: string;
  /** Open on a picker hit (hit-focus.ts): its search, its filter, the cursor on its node. */
  focus?: TreeFocus;
  /** The session's file and id and the folder pi-sessions runs in (an export's name and place); default: none known, here. */
  session?: TreeState['session'];
  /** Resume from here is pi's to do (TreeState's `handsBackResume`); default false. */
  handsBackResume?: boolean;
}

export function initTreeState(options: InitOptions): TreeState {
  const forest = buildForest(options.index, options.filter ?? 'default');
  const layout = layoutForest(forest, new Set());
  const base: TreeState = {
    index: options.index,
    filter: options.filter ?? 'default',
    query: '',
    search: undefined,
    forest,
    layout,
    folds: new Set(),
    cursor: 0,
    anchorId: null,
    offset: 0,
    listHeight: Math.max(1, options.listHeight),
    width: Math.max(10, options.width),
    lastClick: undefined,
    mode: BROWSE,
    labelTimes: false,
    status: options.warning === undefined ? null : { text: options.warning, tone: 'error' },
    busy: false,
    effects: [],
    nextEffectId: 1,
    leaving: false,
    bindings: options.bindings ?? TREE_BINDINGS,
    ownChanges: [],
    openedQuery: null,
    parent: undefined,
    session: options.session ?? { path: '', id: '', here: '.' },
    handsBackResume: options.handsBackResume ?? false,
  };
  const focus = options.focus;
  if (focus) {
    // The filter as a change, so the forest is rebuilt for it even without a search (entryFocus).
    const searched = recompute(
      { ...base, openedQuery: focus.query === '' ? null : focus.query },
      { filter: focus.filter, query: focus.query },
    );
    const focused = centerOn(searched, Math.max(0, searched.layout.rowOf[focus.node] ?? -1), true);
    // pi's configuration problems (the warning) come first.
    return focus.note && focused.status === null ? withStatus(focused, { text: focus.note, tone: 'info' }) : focused;
  }
  // Start on the leaf (or its nearest visible ancestor), centred, like pi.
  const host = forest.leafHost;
  const row = host === -1 ? layout.count - 1 : layout.rowOf[host]!;
  return centerOn(base, Math.max(0, row), true);
}
