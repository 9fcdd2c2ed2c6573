/**
 * The export dialog's glue to a screen: which screen commands mean what to the dialog in each
 * step, and the order in which a result reaches the screen's mode, status line and effects (a
 * screen that logs each call stands in for the picker and the tree).
 */
import { describe, expect, it } from 'vitest';
import {
  type ExportRequestBody,
  type ExportStep,
  NOTHING_EXPORTED,
  openExportDialog,
} from '../../src/state/export-dialog.js';
import {
  applyDialogResult,
  dialogInputOfKey,
  type ExportDialogCommands,
  type ExportDialogScreen,
} from '../../src/state/export-dialog-screen.js';
import { initialTextInput } from '../../src/state/text-input.js';

type Command = 'esc' | 'enter' | 'save' | 'k' | 'j' | 'backspace' | 'other';
const COMMANDS: ExportDialogCommands<Command> = {
  cancel: 'esc',
  submitPath: 'save',
  choose: 'enter',
  up: 'k',
  down: 'j',
};
const FORMAT = openExportDialog();
const PATH: ExportStep = { kind: 'path', format: 'md', input: initialTextInput('x.md') };
const REQUEST: ExportRequestBody = { path: '/s/a.jsonl', format: 'md', out: '/w/x.md', secrets: 'stop' };

/** A screen whose state is the list of calls made to it. */
const LOG: ExportDialogScreen<string[]> = {
  withStep: (log, step) => [...log, step === null ? 'closed' : `step ${step.kind}`],
  withStatus: (log, status) => [...log, status === null ? 'status cleared' : `${status.tone}: ${status.text}`],
  withExport: (log, request) => [...log, `export to ${request.out}`],
};

describe('dialogInputOfKey', () => {
  it('takes the cancel command in every step', () => {
    expect(dialogInputOfKey(FORMAT, COMMANDS, 'esc', undefined)).toEqual({ kind: 'cancel' });
    expect(dialogInputOfKey(PATH, COMMANDS, 'esc', undefined)).toEqual({ kind: 'cancel' });
  });

  it('in a menu: up and down move, choose confirms, the rest (typed text too) mean nothing', () => {
    expect(dialogInputOfKey(FORMAT, COMMANDS, 'k', undefined)).toEqual({ kind: 'move', delta: -1 });
    expect(dialogInputOfKey(FORMAT, COMMANDS, 'j', undefined)).toEqual({ kind: 'move', delta: 1 });
    expect(dialogInputOfKey(FORMAT, COMMANDS, 'enter', undefined)).toEqual({ kind: 'confirm' });
    expect(dialogInputOfKey(FORMAT, COMMANDS, 'save', undefined)).toBeUndefined();
    expect(dialogInputOfKey(FORMAT, COMMANDS, undefined, 'x')).toBeUndefined();
  });

  it('in the path field: submit confirms, text-edit commands and typed text edit, menu keys mean nothing', () => {
    expect(dialogInputOfKey(PATH, COMMANDS, 'save', undefined)).toEqual({ kind: 'confirm' });
    expect(dialogInputOfKey(PATH, COMMANDS, 'backspace', undefined)).toEqual({
      kind: 'edit',
      edit: { type: 'backspace' },
    });
    expect(dialogInputOfKey(PATH, COMMANDS, undefined, 'ab')).toEqual({
      kind: 'edit',
      edit: { type: 'insert', text: 'ab' },
    });
    expect(dialogInputOfKey(PATH, COMMANDS, undefined, '')).toBeUndefined();
    expect(dialogInputOfKey(PATH, COMMANDS, undefined, undefined)).toBeUndefined();
    // A command's text is the command's, not typed.
    expect(dialogInputOfKey(PATH, COMMANDS, 'other', 'o')).toBeUndefined();
    expect(dialogInputOfKey(PATH, COMMANDS, 'enter', undefined)).toBeUndefined();
    expect(dialogInputOfKey(PATH, COMMANDS, 'k', undefined)).toBeUndefined();
  });
});

describe('applyDialogResult', () => {
  it('leaves the state as it is when the key changed nothing', () => {
    const log = ['before'];
    expect(applyDialogResult(log, undefined, LOG)).toBe(log);
  });

  it('cancelled: closes the dialog, then says nothing was exported', () => {
    expect(applyDialogResult([], { kind: 'cancelled' }, LOG)).toEqual(['closed', `note: ${NOTHING_EXPORTED}`]);
  });

  it('refused: the step stays, the message is an error', () => {
    expect(applyDialogResult([], { kind: 'refused', message: 'no path' }, LOG)).toEqual(['error: no path']);
  });

  it('a step: only the mode changes', () => {
    expect(applyDialogResult([], { kind: 'step', step: PATH }, LOG)).toEqual(['step path']);
  });

  it('run: the running step, the status cleared, then the export queued', () => {
    const running: ExportStep = { kind: 'running', format: 'md', out: REQUEST.out };
    expect(applyDialogResult([], { kind: 'run', request: REQUEST, step: running }, LOG)).toEqual([
      'step running',
      'status cleared',
      'export to /w/x.md',
    ]);
  });
});
