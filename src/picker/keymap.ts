/**
 * The picker's key bindings as data: the reducer resolves keys through them, and the footer hints,
 * the `?` help and the README table are generated from them.
 *
 * Typing goes to the search, and the search edits as pi's /resume search does: Home/Ctrl+A,
 * End/Ctrl+E, ←/→ and Ctrl+B/Ctrl+F, Alt+B/Alt+F and Ctrl/Alt+←/→, Delete, Ctrl+K, Ctrl+U,
 * Ctrl+W, Alt+Backspace, Alt+D. pi's own /resume keys keep pi's meaning (Enter, Tab, Ctrl+S,
 * Ctrl+N, Ctrl+P, Ctrl+R, Ctrl+D). Our commands take keys neither pi's editing nor pi's /tree
 * gives another meaning, so one key means one thing in the picker and the tree:
 *   - the tree view: → (Right) at the end of the search text, always while the search is empty
 *     (pi's /resume does nothing with → there); "→" reads as "go into" and is one glyph wide.
 *   - mark: Ctrl+Space, Shift+↓ (mark and move down, as selecting extends in a file list) and
 *     Insert (Midnight Commander's mark key). pi's /tree has Ctrl+T for its no-tools filter.
 *   - mark all shown: Alt+A (Ctrl+A is line-start in pi's editor and the all filter in /tree).
 *   - delete: Ctrl+D, pi's key, deletes the marked sessions when some are marked, else the
 *     highlighted one (Ctrl+X is copy in the tree). The prompt names what goes.
 *   - undo Ctrl+Z, redo Ctrl+Y: as in the tree. pi's editor yanks on Ctrl+Y, from a kill ring
 *     this search does not keep.
 *   - check view: Alt+C; slim (keep only the active branch): Alt+S (Ctrl+K and Ctrl+E edit text);
 *     merge a row's conflict copies: Alt+M (free in every screen; Ctrl+M is Enter in a terminal).
 *   - labels view: Ctrl+L, the labels key of pi's /tree too (its labeled-only filter).
 *   - preview: Ctrl+O, pi's show/hide-details key in its chat (tool output).
 *   - usage stats and help: `$` and `?` while the search is empty (typed otherwise); help also
 *     on F1, which works with a query too.
 *   - first and last session: Ctrl+Home and Ctrl+End (pi's top and bottom keys); Home and End
 *     move the text cursor, as in pi.
 * pi's Ctrl+Backspace alias for delete is left out on purpose: many terminals send Ctrl+Backspace
 * and Backspace the same way (0x08 vs 0x7F is terminal-specific, and both are `backspace`), and
 * a delete prompt while erasing the query would be a trap. Our own commands can be remapped in
 * keybindings.json under `pi-sessions.*` ids (PICKER_OWN_ACTIONS), as pi's are under pi's ids.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { SELECT_MOVE_PI_ACTIONS, type SharedActions } from '../keymap/pi-keybindings.js';
import { WHEEL_ROWS } from '../state/list-mouse.js';
import {
  lineEndBindings,
  TEXT_EDIT_PI_ACTIONS,
  type TextEditCommand,
  textEditBindings,
} from '../state/text-input-keys.js';
import type { ListMove } from '../state/viewport.js';

export type PickerCommand =
  // Moving in the list (src/state/viewport.ts's listMoveTarget).
  | ListMove
  | 'open'
  | 'tree'
  | 'labels'
  | 'scope'
  | 'scopeBack'
  | 'sort'
  | 'named'
  | 'paths'
  | 'preview'
  | 'rename'
  | 'delete'
  | 'mark'
  | 'markAll'
  | 'undo'
  | 'redo'
  | 'skip'
  | 'slim'
  | 'merge'
  | 'export'
  | 'check'
  | 'help'
  | 'stats'
  | 'escape'
  | 'quit'
  // The text field's edits (src/state/text-input-keys.ts).
  | TextEditCommand
  | 'save'
  | 'cancel'
  | 'confirm'
  | 'confirmYes'
  | 'choose'
  | 'closeHelp'
  // The mouse (src/picker/mouse.ts).
  | 'wheelUp'
  | 'wheelDown'
  | 'click';

/**
 * Input modes: `browse` (list + search), `rename`, `confirm` (all delete prompts, the undo
 * question), `menu` (the session's folder is gone; the export's format and secrets), `path` (where
 * an export goes), `help`.
 */
export type PickerKeyMode = 'browse' | 'rename' | 'confirm' | 'menu' | 'path' | 'help';

const EDIT_MODES = ['browse', 'rename', 'path'] as const;

export const PICKER_BINDINGS: readonly KeyBinding<PickerCommand, PickerKeyMode>[] = [
  // Footer order = importance; → tree first, so the one key a pi user does not know is shown at every
  // width; `?` goes last as `? more` once hints are left out (footerHints), so every command is one key away.
  {
    command: 'tree',
    keys: ['right'],
    description: "Open the session's tree (→ at the end of the search text; elsewhere it moves the text cursor)",
    hint: 'tree',
    when: 'browse',
  },
  {
    command: 'open',
    keys: ['return'],
    description:
      'Resume the session in pi (`pi --session <path>` in its folder; inside pi: switch to it; with --print: print its path, or every marked path, one a line, when some are marked)',
    hint: 'resume',
    when: 'browse',
  },
  {
    command: 'help',
    keys: ['?', 'f1'],
    description: 'Every key and command (? when the search is empty, otherwise ? is typed; F1 always)',
    hint: 'help',
    hintMore: 'more',
    when: 'browse',
  },
  {
    command: 'scope',
    keys: ['tab'],
    description: 'Scope: this folder → this folder and sub-folders → all projects',
    hint: 'scope',
    when: 'browse',
  },
  {
    command: 'sort',
    keys: ['ctrl+s'],
    description: 'Sort: threaded → recent → relevance → size → cost',
    hint: 'sort',
    when: 'browse',
  },
  {
    command: 'preview',
    keys: ['ctrl+o'],
    description: 'Show or hide the preview pane',
    hint: 'preview',
    when: 'browse',
  },
  {
    command: 'rename',
    keys: ['ctrl+r'],
    description: 'Rename the session (an empty name clears it)',
    hint: 'rename',
    when: 'browse',
  },
  {
    command: 'delete',
    keys: ['ctrl+d'],
    description:
      'Delete the marked sessions, or the highlighted one when none is marked (moved to the trash, after a confirmation)',
    hint: 'delete',
    when: 'browse',
  },
  {
    command: 'mark',
    keys: ['ctrl+space', 'shift+down', 'insert'],
    description: 'Mark or unmark the session, then move down',
    hint: 'mark',
    when: 'browse',
  },
  {
    command: 'labels',
    keys: ['ctrl+l'],
    description: 'Labels view: every label of every session in the scope (Enter opens the tree on it)',
    hint: 'labels',
    when: 'browse',
  },
  { command: 'named', keys: ['ctrl+n'], description: 'Show named sessions only / all', hint: 'named', when: 'browse' },
  { command: 'paths', keys: ['ctrl+p'], description: 'Show or hide session file paths', hint: 'paths', when: 'browse' },
  {
    command: 'stats',
    keys: ['$'],
    description:
      'Usage stats of the scope: cost and tokens per day, project, model, session and branch (when the search is empty; otherwise $ is typed)',
    hint: 'stats',
    when: 'browse',
  },
  {
    command: 'markAll',
    keys: ['meta+a'],
    description: 'Mark every session shown (unmark them if all are marked)',
    hint: 'mark all',
    when: 'browse',
  },
  {
    command: 'undo',
    keys: ['ctrl+z'],
    description:
      'Undo the latest change pi-sessions made (rename, label, branch, fork, delete, slim, merge; any session, even after a restart): says what, in which session and project, and when, and asks first (unless this screen made it a moment ago)',
    hint: 'undo',
    when: 'browse',
  },
  {
    command: 'redo',
    keys: ['ctrl+y'],
    description: 'Redo: take back the latest undo (while no new change was made since), after saying what it will do',
    hint: 'redo',
    when: 'browse',
  },
  {
    command: 'check',
    keys: ['meta+c'],
    description:
      'Check view: problems and health of every file in the scope (what pi does with each, what to do; Enter opens a tree)',
    hint: 'check',
    when: 'browse',
  },
  {
    command: 'slim',
    keys: ['meta+s'],
    description:
      'Slim the session: keep only its active branch (a new file; the original to the trash, after a prompt with the sizes)',
    hint: 'slim',
    when: 'browse',
  },
  {
    command: 'merge',
    keys: ['meta+m'],
    description:
      'Merge the conflict copies a sync tool left of the session (a row marked ⇄2: the original and one copy) into one file pi loads, the files merged to the trash, after a prompt saying what each adds; refused when they disagree about an entry',
    hint: 'merge',
    when: 'browse',
  },
  {
    command: 'export',
    keys: ['meta+e'],
    description:
      'Export the session’s active branch as Markdown, HTML or JSONL to a new file (the format asked in a menu, then the path); found secrets are redacted unless you choose to keep them',
    hint: 'export',
    when: 'browse',
  },
  { command: 'scopeBack', keys: ['shift+tab'], description: 'Scope, backwards', when: 'browse' },
  { command: 'up', keys: ['up'], description: 'Move up', when: 'browse' },
  { command: 'down', keys: ['down'], description: 'Move down', when: 'browse' },
  { command: 'pageUp', keys: ['pageup'], description: 'Page up', when: 'browse' },
  { command: 'pageDown', keys: ['pagedown'], description: 'Page down', when: 'browse' },
  { command: 'first', keys: ['ctrl+home'], description: 'First session', when: 'browse' },
  { command: 'last', keys: ['ctrl+end'], description: 'Last session', when: 'browse' },
  {
    command: 'escape',
    keys: ['escape'],
    description: 'Clear the search; with an empty search, quit',
    hint: 'quit',
    when: 'browse',
  },
  // The mouse, as the terminal allows (on unless --no-mouse; Shift+drag still selects text in most terminals).
  { command: 'wheelUp', keys: ['wheelup'], description: `Move up ${WHEEL_ROWS} sessions`, when: 'browse' },
  { command: 'wheelDown', keys: ['wheeldown'], description: `Move down ${WHEEL_ROWS} sessions`, when: 'browse' },
  {
    command: 'click',
    keys: ['click'],
    description: 'Select the session clicked; a double click resumes it, as Enter does',
    when: 'browse',
  },
  ...textEditBindings(EDIT_MODES),
  ...lineEndBindings(EDIT_MODES),
  { command: 'save', keys: ['return'], description: 'Save the name', hint: 'save', when: 'rename' },
  { command: 'save', keys: ['return'], description: 'Export to this path', hint: 'export', when: 'path' },
  {
    command: 'cancel',
    // pi's prompts say "escape / ctrl+c cancel": Ctrl+C quits only from the list.
    keys: ['escape', 'ctrl+c'],
    description: 'Cancel',
    hint: 'cancel',
    when: ['rename', 'confirm', 'menu', 'path'],
  },
  {
    command: 'confirm',
    keys: ['return'],
    description: 'Confirm (when the prompt says Enter)',
    hint: 'confirm',
    when: 'confirm',
  },
  {
    command: 'confirmYes',
    keys: ['y', 'Y'],
    description: 'Confirm (when the prompt asks for y: live sessions, permanent deletion, undo and redo)',
    when: 'confirm',
  },
  { command: 'cancel', keys: ['n', 'N'], description: 'Cancel', when: 'confirm' },
  {
    command: 'skip',
    keys: ['s', 'S'],
    description:
      'Skip a change that cannot be undone (the undo question says why): it stays as it is, and the change before it becomes the latest',
    when: 'confirm',
  },
  { command: 'up', keys: ['up'], description: 'Previous choice', when: 'menu' },
  { command: 'down', keys: ['down'], description: 'Next choice', when: 'menu' },
  // Own bindings, not the keys of the two above: a keybindings.json remap of the select keys keeps the wheel.
  { command: 'up', keys: ['wheelup'], description: 'Previous choice', when: 'menu' },
  { command: 'down', keys: ['wheeldown'], description: 'Next choice', when: 'menu' },
  {
    command: 'choose',
    keys: ['return'],
    description: 'Take the highlighted choice',
    hint: 'choose',
    when: 'menu',
  },
  {
    command: 'closeHelp',
    keys: ['escape', '?', 'f1', 'q', 'return', 'ctrl+c'],
    description: 'Close the help',
    hint: 'close',
    when: 'help',
  },
  { command: 'up', keys: ['up', 'k'], description: 'Scroll the help up', when: 'help' },
  { command: 'down', keys: ['down', 'j'], description: 'Scroll the help down', when: 'help' },
  { command: 'pageUp', keys: ['pageup'], description: 'Scroll the help a page up', when: 'help' },
  { command: 'pageDown', keys: ['pagedown', 'space'], description: 'Scroll the help a page down', when: 'help' },
  { command: 'first', keys: ['home'], description: 'Top of the help', when: 'help' },
  { command: 'last', keys: ['end'], description: 'End of the help', when: 'help' },
  { command: 'wheelUp', keys: ['wheelup'], description: `Scroll the help up ${WHEEL_ROWS} lines`, when: 'help' },
  { command: 'wheelDown', keys: ['wheeldown'], description: `Scroll the help down ${WHEEL_ROWS} lines`, when: 'help' },
  { command: 'quit', keys: ['ctrl+c'], description: 'Quit at once (in a prompt or the help, Ctrl+C cancels it)' },
];

export const PICKER_MODE_TITLES: Readonly<Record<PickerKeyMode, string>> = {
  browse: 'list and search',
  rename: 'rename',
  confirm: 'prompts (delete, slim, merge, undo)',
  menu: "menus (the session's folder is gone; export)",
  path: 'export path',
  help: 'help',
};

/**
 * pi's keybindings.json actions that pi's /resume also has (see pi-keybindings.ts). pi's
 * `app.session.deleteNoninvasive` (Ctrl+Backspace) is left out with its key (see the top).
 */
export const PICKER_PI_ACTIONS: SharedActions<PickerCommand> = {
  ...TEXT_EDIT_PI_ACTIONS,
  ...SELECT_MOVE_PI_ACTIONS,
  // pi's delete prompt and its missing-folder question take the select keys too.
  'tui.select.confirm': { commands: ['open', 'confirm', 'choose'], piDefaults: ['enter'] },
  'tui.select.cancel': { commands: ['escape', 'cancel'], piDefaults: ['escape', 'ctrl+c'] },
  'tui.input.tab': { commands: ['scope'], piDefaults: ['tab'] },
  // pi's rename field is a text input: it saves on its submit key.
  'tui.input.submit': { commands: ['save'], piDefaults: ['enter'] },
  'app.session.togglePath': { commands: ['paths'], piDefaults: ['ctrl+p'] },
  'app.session.toggleSort': { commands: ['sort'], piDefaults: ['ctrl+s'] },
  'app.session.toggleNamedFilter': { commands: ['named'], piDefaults: ['ctrl+n'] },
  'app.session.rename': { commands: ['rename'], piDefaults: ['ctrl+r'] },
  'app.session.delete': { commands: ['delete'], piDefaults: ['ctrl+d'] },
};

/**
 * Our own commands under our own ids in keybindings.json (pi ignores ids it does not know), so
 * the keys pi has no action for can be remapped the same way: `"pi-sessions.markAll": "alt+m"`.
 */
export const PICKER_OWN_ACTIONS: SharedActions<PickerCommand> = {
  'pi-sessions.tree': { commands: ['tree'], piDefaults: ['right'] },
  'pi-sessions.mark': { commands: ['mark'], piDefaults: ['ctrl+space', 'shift+down', 'insert'] },
  'pi-sessions.markAll': { commands: ['markAll'], piDefaults: ['alt+a'] },
  'pi-sessions.preview': { commands: ['preview'], piDefaults: ['ctrl+o'] },
  'pi-sessions.labels': { commands: ['labels'], piDefaults: ['ctrl+l'] },
  'pi-sessions.check': { commands: ['check'], piDefaults: ['alt+c'] },
  'pi-sessions.slim': { commands: ['slim'], piDefaults: ['alt+s'] },
  'pi-sessions.merge': { commands: ['merge'], piDefaults: ['alt+m'] },
  'pi-sessions.export': { commands: ['export'], piDefaults: ['alt+e'] },
  'pi-sessions.undo': { commands: ['undo'], piDefaults: ['ctrl+z'] },
  'pi-sessions.redo': { commands: ['redo'], piDefaults: ['ctrl+y'] },
  'pi-sessions.firstSession': { commands: ['first'], piDefaults: ['ctrl+home'] },
  'pi-sessions.lastSession': { commands: ['last'], piDefaults: ['ctrl+end'] },
};
