/**
 * The dialogs below the list: the rename field and the delete prompts. Keys that are not the
 * dialog's own are swallowed, so a stray keystroke never deletes or saves anything.
 */
import { plural } from '../format.js';
import { textInputReducer } from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import type { PickerCommand } from './keymap.js';
import type { PickerMode } from './mode.js';
import { derive, updateInfos } from './rows.js';
import { findInfo, type PickerState, relayout, withEffect, withStatus } from './state.js';

export function renameCommand(
  state: PickerState,
  mode: Extract<PickerMode, { kind: 'rename' }>,
  command: PickerCommand | undefined,
  text: string | undefined,
): PickerState {
  if (command === 'cancel') return relayout({ ...state, mode: { kind: 'browse' } });
  if (command === 'save') {
    const name = mode.input.value.trim();
    const previous = findInfo(state, mode.path)?.name;
    // The row shows the new name at once; a failure puts the old one back.
    const updated = updateInfos(state, mode.path, (info) => ({ ...info, name: name === '' ? undefined : name }));
    const next = derive(relayout({ ...updated, mode: { kind: 'browse' }, busy: true }));
    return withStatus(
      withEffect(next, { kind: 'rename', path: mode.path, name, previous }),
      name === '' ? 'Clearing the name…' : 'Saving the name…',
    );
  }
  const edit = command ? textEditOf(command) : text !== undefined ? ({ type: 'insert', text } as const) : undefined;
  if (!edit) return state;
  const input = textInputReducer(mode.input, edit);
  return input === mode.input ? state : { ...state, mode: { ...mode, input } };
}

export function confirmCommand(
  state: PickerState,
  mode: Extract<PickerMode, { kind: 'confirm' }>,
  command: PickerCommand | undefined,
): PickerState {
  if (command === 'cancel')
    return relayout({ ...withStatus(state, 'Delete cancelled', 'neutral'), mode: { kind: 'browse' } });
  const accepted = command === 'confirmYes' || (command === 'confirm' && !mode.needsYes);
  if (!accepted) return state;
  const next = relayout({ ...state, mode: { kind: 'browse' }, busy: true });
  const verb = mode.permanent ? 'Deleting' : 'Moving';
  return withStatus(
    withEffect(next, { kind: 'trash', paths: mode.paths, permanent: mode.permanent }),
    `${verb} ${plural(mode.paths.length, 'session')}${mode.permanent ? ' permanently' : ' to the trash'}…`,
  );
}
