/**
 * What the tree navigator does with a menu choice, a submitted prompt and an effect's outcome
 * (pure). Writes are queued as effects for the screen; a write in flight (`busy`) refuses another.
 */

import { openMenu as newMenu } from '../state/menu.js';
import { initialTextInput } from '../state/text-input.js';
import { subtreeUsage } from '../store/index.js';
import { sanitizeBlock } from '../text/terminal-text.js';
import { DETAIL_FORMAT } from './detail-format.js';
import { detailRows, maxDetailScroll, wrapDetail } from './detail-view.js';
import { type DetailLine, nodeDetailLines } from './entry-detail.js';
import type { Tone } from './entry-display.js';
import { startExport } from './export.js';
import { forkNodeById, retainedNodeById, withLeaf } from './flatten.js';
import { FORK_ROW_NOTE } from './lineage-actions.js';
import { FORK_ITEMS, type ForkAction, MENU_ITEMS, type MenuAction } from './menu-items.js';
import { centerOn, recompute } from './navigation.js';
import {
  BROWSE,
  detailOf,
  leafIdOf,
  queue,
  type StatusMessage,
  selectedId,
  type TreeState,
  withStatus,
} from './state.js';

export function openMenu(state: TreeState): TreeState {
  const id = selectedId(state);
  if (id === null) return withStatus(state, { text: 'No entries', tone: 'info' });
  // A retained row's menu offers only what can be done to it (View first), not choices it would refuse.
  const items = isRetainedRow(state, id) ? RETAINED_ROW_ITEMS : MENU_ITEMS;
  return { ...state, mode: { kind: 'menu', targetId: id, menu: newMenu(items) }, status: null };
}

/**
 * A compaction's retained message has a row but is not an entry (no id): only View and Copy
 * apply to it. This is what the menu says and what any other action answers.
 */
export const RETAINED_ROW_NOTE =
  'A retained message is a copy its compaction keeps, not an entry: it cannot be branched to, labelled or forked from';

const ENTRY_ONLY_ACTIONS: ReadonlySet<MenuAction> = new Set([
  'resume',
  'resumeSummary',
  'fork',
  'label',
  'open',
  'export',
]);

const RETAINED_ROW_ITEMS = MENU_ITEMS.filter((item) => !ENTRY_ONLY_ACTIONS.has(item.value));

function isRetainedRow(state: TreeState, id: string): boolean {
  return retainedNodeById(state.index, id) !== undefined;
}

export function startLabel(state: TreeState, id: string | null): TreeState {
  if (id === null) return withStatus(state, { text: 'No entry selected', tone: 'info' });
  if (isRetainedRow(state, id)) return withStatus(state, { text: RETAINED_ROW_NOTE, tone: 'error' });
  if (forkNodeById(state.index, id)) return withStatus(state, { text: FORK_ROW_NOTE, tone: 'error' });
  return {
    ...state,
    // The label prompt is pre-filled, its cursor at the end (pi puts it at 0).
    mode: { kind: 'labelInput', targetId: id, input: initialTextInput(state.index.tree.labels.get(id) ?? '', true) },
    status: null,
  };
}

export function openDetail(state: TreeState, title: string, lines: readonly DetailLine[]): TreeState {
  return {
    ...state,
    mode: { kind: 'detail', detail: { title, source: lines, lines: wrapDetail(lines, state.width), scroll: 0 } },
  };
}

export function scrollDetail(state: TreeState, to: (scroll: number, page: number, max: number) => number): TreeState {
  const detail = detailOf(state);
  if (!detail) return state;
  const max = maxDetailScroll(detail, state.listHeight);
  const scroll = Math.max(0, Math.min(max, to(detail.scroll, Math.max(1, detailRows(state.listHeight) - 1), max)));
  return scroll === detail.scroll ? state : { ...state, mode: { kind: 'detail', detail: { ...detail, scroll } } };
}

const BUSY: StatusMessage = { text: 'A write is still running', tone: 'error' };

/** The entry menu's choice for `targetId`. */
export function chooseMenuAction(state: TreeState, action: MenuAction): TreeState {
  const id = state.mode.kind === 'menu' ? state.mode.targetId : null;
  const back: TreeState = { ...state, mode: BROWSE };
  if (id === null || action === 'cancel') return back;
  if (ENTRY_ONLY_ACTIONS.has(action) && isRetainedRow(state, id))
    return withStatus(back, { text: RETAINED_ROW_NOTE, tone: 'error' });
  switch (action) {
    case 'resume':
      if (state.handsBackResume) {
        // pi's leaf, not the file's, is where pi is (its /tree moves it without writing): pi
        // decides, as its /tree does for the entry it is on already.
        if (state.busy) return withStatus(back, BUSY);
        return queue(back, { kind: 'handBack', entryId: id });
      }
      if (id === leafIdOf(state))
        return withStatus(back, { text: 'Already at this point: pi resumes here', tone: 'info' });
      if (state.busy) return withStatus(back, BUSY);
      return queue(
        { ...back, busy: true, status: { text: 'Moving the leaf…', tone: 'info' } },
        { kind: 'branch', entryId: id },
      );
    case 'resumeSummary':
      return { ...state, mode: { kind: 'summaryInput', targetId: id, input: initialTextInput('') } };
    case 'fork':
      if (state.busy) return withStatus(back, BUSY);
      return queue({ ...back, busy: true, status: { text: 'Forking…', tone: 'info' } }, { kind: 'fork', entryId: id });
    case 'label':
      return startLabel(back, id);
    case 'view':
      return openDetail(state, 'entry', nodeDetailLines(state.index, id, DETAIL_FORMAT, subtreeUsage));
    case 'copy':
      return queue(back, { kind: 'copy', entryId: id });
    case 'open':
      if (state.busy) return withStatus(back, BUSY);
      return queue(
        { ...back, busy: true, status: { text: 'Opening in pi…', tone: 'info' } },
        { kind: 'checkOpen', target: { kind: 'entry', id } },
      );
    case 'export':
      return startExport(back, id);
  }
}

/** The menu shown after a fork: open the new file, or stay. */
export function chooseForkAction(state: TreeState, action: ForkAction): TreeState {
  const path = state.mode.kind === 'forkDone' ? state.mode.path : null;
  const back: TreeState = { ...state, mode: BROWSE };
  if (action === 'openFork' && path !== null)
    return queue({ ...back, busy: true }, { kind: 'checkOpen', target: { kind: 'file', path } });
  return back;
}

export function submitLabel(state: TreeState, value: string): TreeState {
  const id = state.mode.kind === 'labelInput' ? state.mode.targetId : null;
  const back: TreeState = { ...state, mode: BROWSE };
  if (id === null) return back;
  if (state.busy) return withStatus(back, BUSY);
  const label = value.trim();
  const current = state.index.tree.labels.get(id) ?? '';
  if (label === current)
    return withStatus(back, { text: label === '' ? 'No label to clear' : 'Label unchanged', tone: 'info' });
  return queue({ ...back, busy: true }, { kind: 'label', entryId: id, label });
}

export function submitSummary(state: TreeState, value: string): TreeState {
  const id = state.mode.kind === 'summaryInput' ? state.mode.targetId : null;
  const back: TreeState = { ...state, mode: BROWSE };
  if (id === null) return back;
  if (state.busy) return withStatus(back, BUSY);
  const summary = value.trim();
  if (summary === '') return withStatus(back, { text: 'Empty summary: nothing written', tone: 'info' });
  return queue(
    { ...back, busy: true, status: { text: 'Moving the leaf…', tone: 'info' } },
    { kind: 'branchSummary', entryId: id, summary },
  );
}

/**
 * The leaf moved (resume from here): centre on it; a message pi would re-send is shown to copy.
 * The file's leaf is the entry just appended (a branch summary is itself the new leaf). The live
 * watcher may have brought that entry in already, or bring it just after: either way the tree ends
 * as a fresh open draws it, and until the entry arrives the leaf shows where pi resumes.
 */
export function branched(
  state: TreeState,
  leafId: string | null,
  entryId: string | undefined,
  editorText: string | undefined,
): TreeState {
  const fileLeaf = entryId !== undefined && state.index.numOf.has(entryId) ? entryId : leafId;
  const moved = recompute({ ...state, busy: false }, { index: withLeaf(state.index, fileLeaf) });
  const status: StatusMessage = { text: 'Leaf moved: pi resumes here next time', tone: 'success' };
  const host = moved.forest.leafHost;
  const centred = host === -1 ? moved : centerOn(moved, moved.layout.rowOf[host]!, true);
  if (editorText !== undefined && editorText !== '') {
    // pi puts the message back in the editor; we show it so it can be copied and re-sent.
    const lines: DetailLine[] = [
      {
        text: 'pi resumes before this message. To re-send it (edited or not), copy it from here:',
        tone: 'muted' as Tone,
      },
      { text: '', tone: 'plain' as Tone },
      ...sanitizeBlock(editorText).map((text) => ({ text, tone: 'plain' as Tone })),
    ];
    return { ...openDetail(centred, 'message to re-send', lines), status };
  }
  return withStatus(centred, status);
}

export function forked(state: TreeState, path: string, editorText: string | undefined): TreeState {
  return {
    ...state,
    busy: false,
    // Forked before a user message (pi's /fork): that message's text, to re-send in the new session.
    mode: { kind: 'forkDone', path, editorText: editorText ?? null, menu: newMenu(FORK_ITEMS) },
    status: {
      text: editorText === undefined ? `Forked to ${path}` : `Forked before the message, to ${path}`,
      tone: 'success',
    },
  };
}
