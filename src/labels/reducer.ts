/**
 * The labels view as a pure reducer: every label of every session in the picker's
 * scope, filtered as the user types, one cursor over the shown rows. Keys resolve through the
 * keymap data (keymap.ts); leaving (open a tree, back, quit) is queued as an effect for the screen,
 * as in the picker and the tree. The rows arrive from the screen's loader (`loaded`).
 */
import { type KeyBinding, resolveCommand } from '../keymap/keymap.js';
import { reduceText } from '../keymap/text-runs.js';
import type { Keypress } from '../keymap/tokenize.js';
import {
  cleanInputText,
  initialTextInput,
  type TextInputAction,
  type TextInputState,
  textInputReducer,
} from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import { clampOffset, isListMove, listMoveTarget } from '../state/viewport.js';
import { filterRows, rowHaystack } from './filter.js';
import { LABELS_BINDINGS, type LabelsCommand, type LabelsKeyMode } from './keymap.js';
import type { LabelRow } from './rows.js';

export type LabelsEffect =
  | { id: number; kind: 'open'; row: LabelRow }
  | { id: number; kind: 'back' }
  | { id: number; kind: 'quit' };

export interface LabelsState {
  /** Every label, newest first; empty until loaded. */
  readonly rows: readonly LabelRow[];
  readonly haystacks: readonly string[];
  readonly loading: boolean;
  /** Sessions that could not be read (one line each, shown in the status). */
  readonly problems: readonly string[];
  readonly filter: TextInputState;
  /** Indices into `rows` of the rows the filter shows. */
  readonly shown: readonly number[];
  /** Position in `shown`. */
  readonly cursor: number;
  readonly offset: number;
  readonly listLines: number;
  readonly mode: LabelsKeyMode;
  readonly effects: readonly LabelsEffect[];
  readonly nextId: number;
  /** Leaving the screen: the rest of a read goes to the next one. */
  readonly leaving: boolean;
  /** The keymap keys resolve through: LABELS_BINDINGS with pi's keybindings.json applied. */
  readonly bindings: readonly KeyBinding<LabelsCommand, LabelsKeyMode>[];
  /** A session whose file was gone when Enter tried to open it: said until the next key. */
  readonly gone?: string;
}

export type LabelsAction =
  | ({ type: 'key' } & Keypress)
  | { type: 'loaded'; rows: readonly LabelRow[]; problems: readonly string[] }
  | { type: 'resize'; listLines: number }
  | { type: 'effectsTaken'; upTo: number }
  /** Enter found the session's file gone (`message` says so): its labels leave the list. */
  | { type: 'sessionGone'; path: string; message: string };

/** `bindings`: default LABELS_BINDINGS (pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
export function initLabelsState(options: {
  listLines: number;
  bindings?: readonly KeyBinding<LabelsCommand, LabelsKeyMode>[];
}): LabelsState {
  return {
    rows: [],
    haystacks: [],
    loading: true,
    problems: [],
    filter: initialTextInput(''),
    shown: [],
    cursor: 0,
    offset: 0,
    listLines: Math.max(1, options.listLines),
    mode: 'browse',
    effects: [],
    nextId: 1,
    leaving: false,
    bindings: options.bindings ?? LABELS_BINDINGS,
  };
}

/** The same screen taking keys again (Esc from the tree it opened): no pending effects. */
export function resumeLabelsState(state: LabelsState): LabelsState {
  return { ...state, effects: [], leaving: false };
}

export function selectedLabel(state: LabelsState): LabelRow | undefined {
  const at = state.shown[state.cursor];
  return at === undefined ? undefined : state.rows[at];
}

export function labelsKey(keypress: Keypress): LabelsAction {
  return { type: 'key', name: keypress.name, text: keypress.text, paste: keypress.paste };
}

export function labelsTakesKeys(state: LabelsState): boolean {
  return !state.leaving;
}

/** An effect as queued, before it has its id (the picker's EffectBody). */
type LabelsEffectBody = LabelsEffect extends infer E ? (E extends LabelsEffect ? Omit<E, 'id'> : never) : never;

function queue(state: LabelsState, effect: LabelsEffectBody): LabelsState {
  return {
    ...state,
    effects: [...state.effects, { ...effect, id: state.nextId }],
    nextId: state.nextId + 1,
    leaving: true,
  };
}

function moveTo(state: LabelsState, position: number): LabelsState {
  const count = state.shown.length;
  const cursor = count === 0 ? 0 : Math.max(0, Math.min(count - 1, position));
  const offset = clampOffset(state.offset, cursor, state.listLines, count);
  return cursor === state.cursor && offset === state.offset ? state : { ...state, cursor, offset };
}

/** Re-filters; the cursor stays on the row it was on when the filter still shows it, else the first. */
function refilter(state: LabelsState, filter: TextInputState): LabelsState {
  if (filter.value === state.filter.value) return filter === state.filter ? state : { ...state, filter };
  const before = state.shown[state.cursor];
  const shown = filterRows(state.haystacks, filter.value);
  const kept = before === undefined ? -1 : shown.indexOf(before);
  return moveTo({ ...state, filter, shown, cursor: 0, offset: 0 }, Math.max(0, kept));
}

function edit(state: LabelsState, action: TextInputAction): LabelsState {
  return refilter(state, textInputReducer(state.filter, action));
}

function runCommand(state: LabelsState, command: LabelsCommand): LabelsState {
  if (isListMove(command))
    return moveTo(state, listMoveTarget(command, state.cursor, state.listLines, state.shown.length));
  switch (command) {
    case 'open': {
      const row = selectedLabel(state);
      return row === undefined ? state : queue(state, { kind: 'open', row });
    }
    case 'escape':
      return state.filter.value !== '' ? edit(state, { type: 'clear' }) : queue(state, { kind: 'back' });
    case 'help':
      // `?` types into a non-empty filter, as in the picker.
      return state.filter.value === '' ? { ...state, mode: 'help' } : edit(state, { type: 'insert', text: '?' });
    case 'closeHelp':
      return { ...state, mode: 'browse' };
    case 'quit':
      return queue(state, { kind: 'quit' });
    default: {
      const editAction = textEditOf(command);
      return editAction ? edit(state, editAction) : state;
    }
  }
}

function insertText(state: LabelsState, text: string): LabelsState {
  const cleaned = cleanInputText(text);
  return cleaned === '' ? state : edit(state, { type: 'insert', text: cleaned });
}

/** Every printable key types while the filter is not empty; `?` is help only on an empty one. */
function typesText(state: LabelsState): boolean {
  return state.mode === 'browse' && state.filter.value !== '';
}

function onSingleKey(state: LabelsState, keypress: Keypress): LabelsState {
  const command = resolveCommand(state.bindings, keypress.name, state.mode);
  if (command === 'quit') return queue(state, { kind: 'quit' });
  if (state.mode === 'help') return { ...state, mode: 'browse' };
  if (command !== undefined) return runCommand(state, command);
  return keypress.text !== '' ? insertText(state, keypress.text) : state;
}

export function labelsReducer(state: LabelsState, action: LabelsAction): LabelsState {
  switch (action.type) {
    case 'key': {
      // What a gone session's Enter said stays until the next key.
      const keyed = state.gone === undefined ? state : { ...state, gone: undefined };
      if (action.paste) return keyed.mode === 'browse' ? insertText(keyed, action.text) : keyed;
      return reduceText(keyed, action, typesText, insertText, onSingleKey);
    }
    case 'loaded': {
      const haystacks = action.rows.map(rowHaystack);
      const shown = filterRows(haystacks, state.filter.value);
      return moveTo(
        {
          ...state,
          rows: action.rows,
          haystacks,
          problems: action.problems,
          loading: false,
          shown,
          cursor: 0,
          offset: 0,
        },
        0,
      );
    }
    case 'resize': {
      const listLines = Math.max(1, action.listLines);
      return listLines === state.listLines
        ? state
        : { ...state, listLines, offset: clampOffset(state.offset, state.cursor, listLines, state.shown.length) };
    }
    case 'effectsTaken': {
      const effects = state.effects.filter((e) => e.id > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
    case 'sessionGone': {
      const rows = state.rows.filter((row) => row.session.path !== action.path);
      const haystacks = rows.map(rowHaystack);
      const shown = filterRows(haystacks, state.filter.value);
      const cursor = Math.min(state.cursor, Math.max(0, shown.length - 1));
      return moveTo({ ...state, rows, haystacks, shown, leaving: false, gone: action.message }, cursor);
    }
  }
}
