/**
 * The export dialog's glue to a screen (pure), the same for the picker and the tree: a screen key
 * as the dialog's input, and the dialog's result as the screen's next state. A screen says only
 * which of its commands mean cancel, confirm and move (the path field's edits are the shared text
 * edits), and how it sets its mode, its status line and its effects.
 */
import type { DialogInput, DialogResult, ExportRequestBody, ExportStep } from './export-dialog.js';
import { NOTHING_EXPORTED } from './export-dialog.js';
import { textEditOf } from './text-input-keys.js';

/** Which of a screen's commands the dialog takes, by what they mean to it. */
export interface ExportDialogCommands<C extends string> {
  cancel: C;
  /** Enter in the path field: export to the path typed. */
  submitPath: C;
  /** Enter in a menu (the format, the secrets): take the highlighted choice. */
  choose: C;
  up: C;
  down: C;
}

/** How a screen keeps the dialog: in its mode, on its status line, in its effects. */
export interface ExportDialogScreen<S> {
  /** The dialog at `step`, or closed (null): the screen under it again. */
  withStep(state: S, step: ExportStep | null): S;
  /** A note (nothing was exported) or an error (a path refused) on the status line; null clears it. */
  withStatus(state: S, status: { text: string; tone: 'note' | 'error' } | null): S;
  /** The export queued as the screen's effect. */
  withExport(state: S, request: ExportRequestBody): S;
}

/**
 * A key as the dialog's input: in the path step the field's keys (typed text, which comes with no
 * command, included), in the menus the menu's; undefined when the key means nothing to the dialog.
 */
export function dialogInputOfKey<C extends string>(
  step: ExportStep,
  commands: ExportDialogCommands<C>,
  command: C | undefined,
  text: string | undefined,
): DialogInput | undefined {
  if (command === commands.cancel) return { kind: 'cancel' };
  if (step.kind === 'path') {
    if (command === commands.submitPath) return { kind: 'confirm' };
    const edit =
      textEditOf(command) ??
      (command === undefined && text !== undefined && text !== '' ? ({ type: 'insert', text } as const) : undefined);
    return edit ? { kind: 'edit', edit } : undefined;
  }
  if (command === commands.up || command === commands.down)
    return { kind: 'move', delta: command === commands.up ? -1 : 1 };
  return command === commands.choose ? { kind: 'confirm' } : undefined;
}

/** The dialog's result as the screen's state (undefined: the key changed nothing). */
export function applyDialogResult<S>(state: S, result: DialogResult | undefined, screen: ExportDialogScreen<S>): S {
  if (!result) return state;
  switch (result.kind) {
    case 'cancelled':
      return screen.withStatus(screen.withStep(state, null), { text: NOTHING_EXPORTED, tone: 'note' });
    case 'refused':
      return screen.withStatus(state, { text: result.message, tone: 'error' });
    case 'step':
      return screen.withStep(state, result.step);
    case 'run':
      return screen.withExport(screen.withStatus(screen.withStep(state, result.step), null), result.request);
  }
}
