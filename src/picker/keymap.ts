/**
 * The picker's key bindings as data: the reducer resolves keys through them, and the footer hints,
 * the `?` overlay and the README table are generated from them.
 *
 * Typing goes to the search, so every command outside the dialogs is a control key, an arrow or
 * Tab; printable characters are never bound in `browse` (the one exception, `?`, opens help only
 * while the search is empty and is typed otherwise — the reducer decides). Choices where pi has
 * no key:
 *   - mark: Ctrl+T (and Ctrl+Space where the terminal sends NUL for it); both are single control bytes.
 *   - mark all shown: Ctrl+A (Home/End move in the list, so the query needs no line-start key).
 *   - delete marked: Ctrl+X.
 *   - undo: Ctrl+Z only. `u` cannot be used because it would be typed into the search.
 *   - redo: Ctrl+Y, as in most editors. pi binds it to yank (paste what Ctrl+K/Ctrl+W cut), which
 *     needs a kill ring our search field does not keep, and pi's /resume binds nothing there.
 *   - skip (in the undo question of a change that cannot be undone): `s`.
 *   - preview: Ctrl+O. Right arrow stays a cursor key of the search field.
 *   - the tree view: → (Right) when the text cursor is at the end of the search — always, while
 *     the search is empty. Enter resumes in pi as in pi's /resume, so the tree needs its own key,
 *     one key away: pi's /resume has no use for → at the end of the text (it does nothing there),
 *     "→" reads as "go into", it is one glyph in the footer so it fits at every width, and it
 *     takes no control key from the search field (Ctrl+E/Ctrl+T are line-end and mark keys).
 *   - usage stats: `$` while the search is empty (typed otherwise, like `?`): the dollar sign is
 *     what the screen is about, and every free control key is taken by pi's editor, tmux (Ctrl+B)
 *     or common terminals (Ctrl+V pastes, Ctrl+F finds in VS Code's terminal).
 *   - slim (keep only the active branch): Ctrl+E, for "essentials"; Ctrl+B is tmux's prefix and
 *     Ctrl+K ("check") opens the check view. Line-end in the search is End (as line-start is Home).
 *   - labels view: Ctrl+L ("labels"; nothing to clear in a full-screen app).
 * pi's Ctrl+Backspace alias for delete is left out on purpose: many terminals send Ctrl+Backspace
 * and Backspace the same way (0x08 vs 0x7F is terminal-specific, and both are `backspace`), and
 * a delete prompt while erasing the query would be a trap.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { SELECT_MOVE_PI_ACTIONS, type SharedActions } from '../keymap/pi-keybindings.js';
import { TEXT_EDIT_PI_ACTIONS, type TextEditCommand, textEditBindings } from '../state/text-input-keys.js';
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
  | 'deleteMarked'
  | 'undo'
  | 'redo'
  | 'skip'
  | 'slim'
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
  | 'closeHelp';

/** Input modes: `browse` (list + search), `rename`, `confirm` (all delete prompts, the undo question), `missingCwd` (the session's folder is gone), `help`. */
export type PickerKeyMode = 'browse' | 'rename' | 'confirm' | 'missingCwd' | 'help';

const EDIT_MODES = ['browse', 'rename'] as const;

export const PICKER_BINDINGS: readonly KeyBinding<PickerCommand, PickerKeyMode>[] = [
  // Footer order = importance; → tree first, so the one key a pi user does not know is shown at every width.
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
      'Resume the session in pi (`pi --session <path>` in its folder; with --print and inside pi: print its path / switch to it)',
    hint: 'resume',
    when: 'browse',
  },
  {
    command: 'help',
    keys: ['?'],
    description: 'Key help (when the search is empty; otherwise ? is typed)',
    hint: 'help',
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
    description: 'Delete the session (moved to the trash, after a confirmation)',
    hint: 'delete',
    when: 'browse',
  },
  {
    command: 'mark',
    keys: ['ctrl+t', 'ctrl+space'],
    description: 'Mark or unmark the session, then move down',
    hint: 'mark',
    when: 'browse',
  },
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
    keys: ['ctrl+a'],
    description: 'Mark every session shown (unmark them if all are marked)',
    hint: 'mark all',
    when: 'browse',
  },
  {
    command: 'deleteMarked',
    keys: ['ctrl+x'],
    description: 'Delete the marked sessions (after a summary)',
    hint: 'delete marked',
    when: 'browse',
  },
  {
    command: 'undo',
    keys: ['ctrl+z'],
    description:
      'Undo the latest change pi-sessions made (rename, label, branch, fork, delete, slim; any session, even after a restart): says what, in which session and project, and when, and asks first (unless this screen made it a moment ago)',
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
    keys: ['ctrl+k'],
    description:
      'Check view: problems and health of every file in the scope (what pi does with each, what to do; Enter opens a tree)',
    hint: 'check',
    when: 'browse',
  },
  {
    command: 'slim',
    keys: ['ctrl+e'],
    description:
      'Slim the session: keep only its active branch (a new file; the original to the trash, after a prompt with the sizes)',
    hint: 'slim',
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
  { command: 'scopeBack', keys: ['shift+tab'], description: 'Scope, backwards', when: 'browse' },
  { command: 'up', keys: ['up'], description: 'Move up', when: 'browse' },
  { command: 'down', keys: ['down'], description: 'Move down', when: 'browse' },
  { command: 'pageUp', keys: ['pageup'], description: 'Page up', when: 'browse' },
  { command: 'pageDown', keys: ['pagedown'], description: 'Page down', when: 'browse' },
  { command: 'first', keys: ['home'], description: 'First session', when: 'browse' },
  { command: 'last', keys: ['end'], description: 'Last session', when: 'browse' },
  {
    command: 'escape',
    keys: ['escape'],
    description: 'Clear the search; with an empty search, quit',
    hint: 'quit',
    when: 'browse',
  },
  ...textEditBindings(EDIT_MODES),
  { command: 'save', keys: ['return'], description: 'Save the name', hint: 'save', when: 'rename' },
  {
    command: 'cancel',
    // pi's prompts say "escape / ctrl+c cancel": Ctrl+C quits only from the list.
    keys: ['escape', 'ctrl+c'],
    description: 'Cancel',
    hint: 'cancel',
    when: ['rename', 'confirm', 'missingCwd'],
  },
  { command: 'textStart', keys: ['home'], description: 'Text cursor to the start', when: 'rename' },
  { command: 'textEnd', keys: ['end'], description: 'Text cursor to the end', when: 'rename' },
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
  { command: 'up', keys: ['up'], description: 'Previous choice', when: 'missingCwd' },
  { command: 'down', keys: ['down'], description: 'Next choice', when: 'missingCwd' },
  {
    command: 'choose',
    keys: ['return'],
    description: 'Take the highlighted choice',
    hint: 'choose',
    when: 'missingCwd',
  },
  {
    command: 'closeHelp',
    keys: ['escape', '?', 'q', 'return', 'ctrl+c'],
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
  { command: 'quit', keys: ['ctrl+c'], description: 'Quit at once (in a prompt or the help, Ctrl+C cancels it)' },
];

export const PICKER_MODE_TITLES: Readonly<Record<PickerKeyMode, string>> = {
  browse: 'list and search',
  rename: 'rename',
  confirm: 'prompts (delete, slim, undo)',
  missingCwd: "the session's folder is gone",
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
