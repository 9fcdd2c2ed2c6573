/**
 * Merging a session's conflict copies from the picker (the row marked `⇄N`): the key measures the
 * merge first (`planMerge` effect, refused there with the store's message when two copies disagree
 * about an entry), then a prompt says what will happen: one merged file pi loads, the files merged
 * to the trash, the undo key takes it back. Only then is the merge made (store sync/merge.ts);
 * the scope is listed again, where the group is one ordinary row.
 */
import { basename } from 'node:path';
import { formatBytes, plural } from '../format.js';
import { type KeyBinding, keyFor, keyPrompt } from '../keymap/keymap.js';
import { type ConflictMergePlan, type ConflictMergeResult, copyOrigin } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { conflictFolding, conflictGroupAt } from './conflict-rows.js';
import type { PickerCommand } from './keymap.js';
import { isLive } from './layout.js';
import type { PickerMode } from './mode.js';
import { afterRewrite } from './slim.js';
import { currentList, findInfo, type PickerState, relayout, withEffect, withStatus } from './state.js';

export type MergeMode = Extract<PickerMode, { kind: 'mergeConfirm' }>;

const entries = (n: number): string => plural(n, 'entry', 'entries');

export function startMerge(state: PickerState, path: string): PickerState {
  if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
  const group = conflictGroupAt(conflictFolding(currentList(state)?.sessions ?? []), path);
  if (!group)
    return withStatus(
      state,
      'Nothing to merge: this session has no conflict copy (a row marked ⇄ has; a sync tool makes them)',
    );
  if (path === state.current)
    return withStatus(state, 'Not merged: the session pi is in cannot be merged from here', 'error');
  const asking = relayout({
    ...state,
    busy: true,
    status: undefined,
    mode: { kind: 'mergeConfirm', path, group, plan: null, needsYes: false },
  });
  return withEffect(asking, { kind: 'planMerge', path, group });
}

export function mergePlanned(state: PickerState, path: string, plan: ConflictMergePlan, nowMs: number): PickerState {
  const idle = { ...state, busy: false };
  const asked = state.mode;
  // Cancelled while the copies were read: nothing more to say.
  if (asked.kind !== 'mergeConfirm' || asked.path !== path) return idle;
  const { group } = asked;
  // A file written in the last minutes may still be open in pi on one machine or the other.
  const needsYes = [path, ...group.copies.map((c) => c.path)].some((p) => {
    const info = findInfo(state, p);
    return info !== undefined && isLive(info, nowMs);
  });
  return relayout({ ...idle, status: undefined, mode: { kind: 'mergeConfirm', path, group, plan, needsYes } });
}

export function mergeCommand(state: PickerState, mode: MergeMode, command: PickerCommand | undefined): PickerState {
  if (command === 'cancel') return relayout({ ...withStatus(state, 'Nothing was merged'), mode: { kind: 'browse' } });
  if (mode.plan === null) return state;
  const accepted = command === 'confirmYes' || (command === 'confirm' && !mode.needsYes);
  if (!accepted) return state;
  return withStatus(
    withEffect(relayout({ ...state, mode: { kind: 'browse' }, busy: true }), {
      kind: 'merge',
      path: mode.path,
      group: mode.group,
    }),
    'Merging…',
  );
}

/** The store refused (or failed): said as it says it, the question closed. */
export function mergeFailed(state: PickerState, error: string): PickerState {
  const mode = state.mode.kind === 'mergeConfirm' ? { kind: 'browse' as const } : state.mode;
  return withStatus(relayout({ ...state, busy: false, mode }), `Not merged: ${error}`, 'error');
}

export function merged(state: PickerState, result: ConflictMergeResult): PickerState {
  const undoHint = keyPrompt(state.bindings, 'browse', [['undo', 'undoes']]);
  const text = `Merged ${plural(result.files.length, 'file')} into one of ${entries(result.entries)} (${formatBytes(result.sizeBefore)} → ${formatBytes(result.sizeAfter)}); the files merged are in the trash${undoHint ? ` · ${undoHint}` : ''}`;
  return afterRewrite(state, text, result);
}

/** Whose leaf the merged file's is, in a few words: the file names are too long for a prompt line. */
function leafWriter(plan: ConflictMergePlan): string {
  const copy = plan.files.find((f) => f.path === plan.leafFrom)?.copy;
  if (!copy) return 'the original';
  return copy.device !== undefined ? `the copy from ${sanitizeInline(copy.device)}` : 'the copy';
}

/** The prompt's lines (pure; the dialog renders them). */
export function mergeLines(
  mode: MergeMode,
  title: string,
  bindings: readonly KeyBinding<PickerCommand>[],
): { title: string; what: string; how: string; warning: string; keys: string } {
  const { plan } = mode;
  if (plan === null)
    return {
      title: `Merge “${title}” and its conflict copies?`,
      what: 'Reading what each file adds…',
      how: '',
      warning: '',
      keys: keyPrompt(bindings, 'confirm', [['cancel', 'cancel']]),
    };
  const undo = keyFor(bindings, 'undo', 'browse');
  const adds = plan.files.map((file) => {
    // Devices and names come from file names: bytes from disk like any session text.
    const who = file.copy ? sanitizeInline(copyOrigin(file.copy) || basename(file.path)) : 'the original';
    return `${who} +${file.own}`;
  });
  const copies = plural(plan.files.length - 1, 'conflict copy', 'conflict copies');
  return {
    title: `Merge “${title}” and its ${copies} into one file?`,
    what: `${entries(plan.entries)} (${adds.join(' · ')}) · ${formatBytes(plan.sizeBefore)} → ${formatBytes(plan.sizeAfter)}`,
    // The undo key first: where the line must be cut (a narrow terminal), the explanation goes, not the way back.
    how: `${undo ? `${undo} undoes it. ` : ''}One merged file pi loads (it resumes where ${leafWriter(plan)} left off); the ${plural(plan.files.length, 'file')} merged go to the trash.`,
    warning: mode.needsYes ? '⚠ A file changed in the last 5 minutes: pi may still be writing to it.' : '',
    keys: keyPrompt(bindings, 'confirm', [
      mode.needsYes ? ['confirmYes', 'merge anyway'] : ['confirm', 'merge'],
      ['cancel', 'cancel'],
    ]),
  };
}
