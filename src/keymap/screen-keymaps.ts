/**
 * Every screen's key bindings with pi's keybindings.json applied (pi-keybindings.ts), built once
 * at start (pi reads the file at start too) and handed to the screens' initial states.
 */

import {
  CHECK_BINDINGS,
  CHECK_OWN_ACTIONS,
  CHECK_PI_ACTIONS,
  type CheckCommand,
  type CheckKeyMode,
} from '../check/keymap.js';
import { LABELS_BINDINGS, LABELS_PI_ACTIONS, type LabelsCommand, type LabelsKeyMode } from '../labels/keymap.js';
import {
  PICKER_BINDINGS,
  PICKER_OWN_ACTIONS,
  PICKER_PI_ACTIONS,
  type PickerCommand,
  type PickerKeyMode,
} from '../picker/keymap.js';
import { STATS_BINDINGS, STATS_PI_ACTIONS, type StatsCommand, type StatsKeyMode } from '../stats/keymap.js';
import { TREE_BINDINGS, TREE_PI_ACTIONS, type TreeCommand, type TreeKeyMode } from '../tree/keymap.js';
import type { KeyBinding } from './keymap.js';
import { applyPiKeybindings, piKeybindingsConfig } from './pi-keybindings.js';

export interface ScreenKeymaps {
  picker: readonly KeyBinding<PickerCommand, PickerKeyMode>[];
  tree: readonly KeyBinding<TreeCommand, TreeKeyMode>[];
  stats: readonly KeyBinding<StatsCommand, StatsKeyMode>[];
  check: readonly KeyBinding<CheckCommand, CheckKeyMode>[];
  labels: readonly KeyBinding<LabelsCommand, LabelsKeyMode>[];
  /** What in the file was left out, one line each, naming the file. */
  problems: string[];
}

export const DEFAULT_KEYMAPS: ScreenKeymaps = {
  picker: PICKER_BINDINGS,
  tree: TREE_BINDINGS,
  stats: STATS_BINDINGS,
  check: CHECK_BINDINGS,
  labels: LABELS_BINDINGS,
  problems: [],
};

/** `raw` is keybindings.json as parsed; `file` names it in the problem lines. */
export function screenKeymaps(raw: Readonly<Record<string, unknown>>, file: string): ScreenKeymaps {
  const config = piKeybindingsConfig(raw);
  const picker = applyPiKeybindings(PICKER_BINDINGS, { ...PICKER_PI_ACTIONS, ...PICKER_OWN_ACTIONS }, config.keys);
  const tree = applyPiKeybindings(TREE_BINDINGS, TREE_PI_ACTIONS, config.keys);
  const stats = applyPiKeybindings(STATS_BINDINGS, STATS_PI_ACTIONS, config.keys);
  const check = applyPiKeybindings(CHECK_BINDINGS, { ...CHECK_PI_ACTIONS, ...CHECK_OWN_ACTIONS }, config.keys);
  const labels = applyPiKeybindings(LABELS_BINDINGS, LABELS_PI_ACTIONS, config.keys);
  // A key no screen can receive is reported once, not once per screen.
  const all = [picker, tree, stats, check, labels].flatMap((screen) => screen.problems);
  const problems = [...new Set([...config.problems, ...all])].map((line) => `${file}: ${line}`);
  return {
    picker: picker.bindings,
    tree: tree.bindings,
    stats: stats.bindings,
    check: check.bindings,
    labels: labels.bindings,
    problems,
  };
}

/** All of pi's configuration problems as the one status line the first screen shows, if any. */
export function configWarning(problems: readonly string[]): string | undefined {
  if (problems.length === 0) return undefined;
  return problems.length === 1 ? problems[0] : `${problems[0]} (and ${problems.length - 1} more)`;
}
