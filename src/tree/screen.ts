/**
 * The tree screen as one pure reducer around the navigator (reducer.ts): it opens the session
 * (the `load` effect and its outcome), holds the one loaded copy of it, and folds in what
 * changes it later: entries a running pi appends (the `watch` effect's events), a file replaced
 * or rewritten (`reread`), and the forks and parent found after the first paint (`findLineage`).
 * Every key reaches it, while the file is being read too; effects share the navigator's queue.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { resolveCommand } from '../keymap/keymap.js';
import type { Keypress } from '../keymap/tokenize.js';
import type { HitFocus } from '../picker/text-hit-places.js';
import {
  buildTree,
  type LoadedSession,
  type Problem,
  type SessionEntry,
  sessionUsage,
  type UsageTotals,
} from '../store/index.js';
import type { FilterMode, TreeIndex } from './flatten.js';
import { buildIndex } from './flatten.js';
import { type ForkLink, type Lineage, NO_LINEAGE } from './fork-nodes.js';
import { entryFocus, treeFocus } from './hit-focus.js';
import type { TreeCommand, TreeKeyMode } from './keymap.js';
import { initTreeState, treeReducer } from './reducer.js';
import { queue, type TreeAction, type TreeEffect, type TreeEffectBody, type TreeState, takesKeys } from './state.js';

/** What the screen opens with: the file, how it is shown, and the terminal's size so far. */
export interface TreeStart {
  readonly path: string;
  readonly listHeight: number;
  readonly width: number;
  /** pi's `treeFilterMode` setting. */
  readonly filter: FilterMode;
  /** Open on this picker hit (the search pre-filled, the cursor on its entry). */
  readonly focus?: HitFocus;
  /** Open on this entry (centred; shown even when the filter hides it) instead of the leaf. */
  readonly focusId?: string;
  readonly bindings: readonly KeyBinding<TreeCommand, TreeKeyMode>[];
  /** pi's configuration problems, shown in the status line until the first key. */
  readonly warning?: string;
  /** Tool-call rows show paths under this folder as `~/…`, as pi's /tree does. */
  readonly home: string;
  /** The folder pi-sessions runs in: an export goes there unless another path is typed. */
  readonly here: string;
  /** Watch the file for entries appended by a running pi. */
  readonly live: boolean;
  /** Whether there is a way to find forks and the parent (the app has one; a bare tree has not). */
  readonly findsLineage: boolean;
  /** This is the session pi is in and pi moves its own leaf: Resume from here is handed back (TreeState's). */
  readonly handsBackResume?: boolean;
}

/** Before there is a tree: the file is being read, or why there is none. */
export interface TreeOpening {
  readonly kind: 'opening';
  readonly start: TreeStart;
  /** null while the file is read. */
  readonly message: { readonly text: string; readonly error: boolean } | null;
  readonly effects: readonly TreeEffect[];
  readonly nextEffectId: number;
  readonly leaving: boolean;
}

/** The session open in the navigator. A tree left for another session's tree comes back as it was. */
export interface TreeOpened {
  readonly kind: 'open';
  readonly start: TreeStart;
  readonly session: LoadedSession;
  readonly totals: UsageTotals;
  readonly lineage: Lineage;
  readonly nav: TreeState;
}

export type TreeScreenState = TreeOpening | TreeOpened;

/** A tree as it was left for another session's tree: Esc comes back to exactly this. */
export type TreeSnapshot = TreeOpened;

export type TreeScreenAction =
  | TreeAction
  /** The file was read. */
  | { type: 'loaded'; session: LoadedSession }
  /** It could not be (`text` says why, as the screen shows it). */
  | { type: 'openFailed'; text: string }
  /** A running pi appended these entries. */
  | { type: 'appended'; entries: SessionEntry[]; entryLines: number[]; problems: Problem[] }
  /** The file changed other than by an append. */
  | { type: 'changed'; reason: string }
  /** Read again whole after a change. */
  | { type: 'reloaded'; session: LoadedSession; reason: string }
  | { type: 'lineage'; lineage: Lineage };

/** The navigator's index of a session (the previous index's text cache kept across rebuilds). */
export function indexSession(
  session: LoadedSession,
  previous: TreeIndex | undefined,
  forks: readonly ForkLink[],
  home: string,
): TreeIndex {
  const tree = buildTree(session);
  return buildIndex(tree, previous ? { texts: previous.texts, forks, home } : { forks, home });
}

/** The screen's first state: reading the file, or a tree come back to (its watcher restarted). */
export function openTree(start: TreeStart, snapshot?: TreeSnapshot): TreeScreenState {
  if (snapshot) {
    const nav: TreeState = { ...snapshot.nav, effects: [], leaving: false, status: null };
    return { ...snapshot, nav: start.live ? queue(nav, { kind: 'watch' }) : nav };
  }
  return {
    kind: 'opening',
    start,
    message: null,
    effects: [{ id: 1, kind: 'load' }],
    nextEffectId: 2,
    leaving: false,
  };
}

export function screenEffects(state: TreeScreenState): readonly TreeEffect[] {
  return state.kind === 'opening' ? state.effects : state.nav.effects;
}

/** False once the screen is being left, and while the file is read (keys wait for the tree). */
export function screenTakesKeys(state: TreeScreenState): boolean {
  return state.kind === 'open' && takesKeys(state.nav);
}

/**
 * How many of `keys` the screen takes before there is a tree. While the file is read the others
 * wait for the tree: Ctrl+C leaves at once, and so does the back key when no key waits before
 * it. A back key typed after keys that wait is the tree's too: there it clears the search those
 * keys typed, so going back at once would lose them. On a message every other key is ignored.
 */
export function openingTakes(state: TreeOpening, keys: readonly Keypress[]): number {
  if (state.leaving) return 0;
  for (let i = 0; i < keys.length; i++) {
    const command = resolveCommand(state.start.bindings, keys[i]!.name, 'browse');
    if (command === 'quit' || (command === 'escape' && (state.message !== null || i === 0))) return i + 1;
  }
  return state.message === null ? 0 : keys.length;
}

function queueOpening(state: TreeOpening, effect: TreeEffectBody): TreeOpening {
  return {
    ...state,
    effects: [...state.effects, { ...effect, id: state.nextEffectId }],
    nextEffectId: state.nextEffectId + 1,
    leaving: true,
  };
}

function opened(state: TreeOpening, session: LoadedSession): TreeScreenState {
  const { start } = state;
  const index = indexSession(session, undefined, [], start.home);
  if (index.size === 0) return { ...state, message: { text: 'No entries in this session.', error: false } };
  const focus = start.focus
    ? treeFocus(index, start.focus, start.filter)
    : start.focusId !== undefined
      ? entryFocus(index, start.focusId, start.filter)
      : undefined;
  const fresh = initTreeState({
    index,
    listHeight: start.listHeight,
    width: start.width,
    filter: start.filter,
    bindings: start.bindings,
    session: { path: start.path, id: session.header.id, here: start.here },
    handsBackResume: start.handsBackResume === true,
    ...(focus ? { focus } : {}),
    ...(start.warning !== undefined ? { warning: start.warning } : {}),
  });
  // One queue for the screen's life: the effects not taken yet, ids going on from the opening's.
  let nav: TreeState = { ...fresh, effects: state.effects, nextEffectId: state.nextEffectId };
  if (start.live) nav = queue(nav, { kind: 'watch' });
  if (start.findsLineage) nav = queue(nav, { kind: 'findLineage' });
  return { kind: 'open', start, session, totals: sessionUsage(index.tree), lineage: NO_LINEAGE, nav };
}

function onOpening(state: TreeOpening, action: TreeScreenAction): TreeScreenState {
  switch (action.type) {
    case 'key': {
      if (state.leaving) return state;
      const command = resolveCommand(state.start.bindings, action.name, 'browse');
      // Ctrl+C: 130 (128 + SIGINT) as in the tree, whichever screen it is pressed on.
      if (command === 'quit') return queueOpening(state, { kind: 'quit' });
      if (command === 'escape') return queueOpening(state, { kind: 'back' });
      return state;
    }
    case 'resize':
      return { ...state, start: { ...state.start, listHeight: action.listHeight, width: action.width } };
    case 'effectsTaken': {
      const effects = state.effects.filter((effect) => effect.id > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
    case 'loaded':
      return state.message === null ? opened(state, action.session) : state;
    case 'openFailed':
      return { ...state, message: { text: action.text, error: true } };
    default:
      return state;
  }
}

/** The session grown or replaced: one index rebuilt, the navigator keeping cursor, folds, filter and search. */
function withSession(
  state: TreeOpened,
  session: LoadedSession,
  options: { previous?: TreeIndex; forks?: readonly ForkLink[]; message?: string },
): TreeOpened {
  const forks = options.forks ?? state.lineage.forks;
  const index = indexSession(session, options.previous, forks, state.start.home);
  const nav = treeReducer(state.nav, {
    type: 'reload',
    index,
    ...(options.message !== undefined ? { message: options.message } : {}),
  });
  return { ...state, session, totals: sessionUsage(index.tree), nav };
}

function withNav(state: TreeOpened, nav: TreeState): TreeOpened {
  return nav === state.nav ? state : { ...state, nav };
}

export function treeScreenReducer(state: TreeScreenState, action: TreeScreenAction): TreeScreenState {
  if (state.kind === 'opening') return onOpening(state, action);
  switch (action.type) {
    case 'loaded':
    case 'openFailed':
      return state;
    case 'appended': {
      const { session } = state;
      const longer: LoadedSession = {
        ...session,
        entries: [...session.entries, ...action.entries],
        entryLines: [...session.entryLines, ...action.entryLines],
        problems: [...session.problems, ...action.problems],
      };
      return withSession(state, longer, { previous: state.nav.index });
    }
    case 'changed':
      return withNav(state, queue(state.nav, { kind: 'reread', reason: action.reason }));
    case 'reloaded':
      return withSession(state, action.session, { message: `Reloaded: ${action.reason}` });
    case 'lineage': {
      const { lineage } = action;
      // The fork rows join the index, and every rebuild keeps them.
      const withForks =
        lineage.forks.length > 0
          ? withSession(state, state.session, { previous: state.nav.index, forks: lineage.forks })
          : state;
      const nav = lineage.parent
        ? treeReducer(withForks.nav, { type: 'parent', parent: lineage.parent })
        : withForks.nav;
      return { ...withNav(withForks, nav), lineage };
    }
    default:
      return withNav(state, treeReducer(state.nav, action));
  }
}
