/**
 * The tree navigator's key bindings, as data: the reducer resolves keys through this list, and
 * the footer hints, the `?` help and the README table are generated from it.
 *
 * Modes (the `when` of a binding):
 *   browse  — the list, query empty: printable keys not bound here start a search; Shift+L,
 *             Shift+T and `?` act only here, so uppercase letters stay typeable in a query.
 *   search  — the list, query non-empty: every printable key edits the query.
 *   detail  — the scrollable detail view of one entry.
 *   help    — the `?` overlay.
 *   menu    — the action menu of an entry, the menu after a fork, the export's format and secrets menus.
 *   prompt  — the label and summary prompts and the export's path (a text input).
 *
 * Up/Down wrap around at both ends as pi's tree does (the picker clamps, as pi's picker does).
 * Differences from pi (pi-ui-reference §2.11, §4 #32), on purpose:
 *   - Plain ←/→ fold/unfold like every tree UI (pi pages with them); Ctrl/Alt+←/→ still work, so
 *     terminals that intercept Ctrl+arrows lose nothing. Paging stays on PgUp/PgDn.
 *   - Home/End, a jump to the leaf (Ctrl+G) and next/previous match (Ctrl+N/Ctrl+P) are added.
 * What terminals cannot tell apart (see src/keymap/keymap.ts): Shift+Ctrl+O is Ctrl+O unless the
 * terminal speaks the kitty protocol, so the backward filter cycle is also on Alt+O.
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

export type TreeCommand =
  // Moving in the list (src/state/viewport.ts's listMoveTarget).
  | ListMove
  | 'jumpToLeaf'
  | 'foldOrUp'
  | 'unfoldOrDown'
  | 'filterDefault'
  | 'filterNoTools'
  | 'filterUserOnly'
  | 'filterLabeledOnly'
  | 'filterAll'
  | 'filterNext'
  | 'filterPrev'
  | 'nextMatch'
  | 'prevMatch'
  | 'deleteChar'
  | 'deleteWord'
  | 'openMenu'
  | 'openParent'
  | 'editLabel'
  | 'toggleLabelTimes'
  | 'copy'
  | 'export'
  | 'help'
  | 'escape'
  | 'quit'
  | 'detailUp'
  | 'detailDown'
  | 'detailPageUp'
  | 'detailPageDown'
  | 'detailHome'
  | 'detailEnd'
  | 'closeOverlay'
  | 'menuUp'
  | 'menuDown'
  | 'menuChoose'
  | 'cancel'
  | 'submit'
  | 'undo'
  | 'redo'
  | 'answerYes'
  | 'skip'
  | 'keep'
  // The mouse (src/tree/mouse.ts).
  | 'wheelUp'
  | 'wheelDown'
  | 'click'
  | TextEditCommand;

export type TreeKeyMode = 'browse' | 'search' | 'detail' | 'help' | 'menu' | 'prompt' | 'confirm';

const LIST: readonly TreeKeyMode[] = ['browse', 'search'];

export const TREE_BINDINGS: readonly KeyBinding<TreeCommand, TreeKeyMode>[] = [
  { command: 'up', keys: ['up'], description: 'Move up', hint: 'move', hintWith: 'down', when: LIST },
  { command: 'down', keys: ['down'], description: 'Move down', when: LIST },
  {
    command: 'openMenu',
    keys: ['return'],
    description:
      'Actions on the selected entry (resume, fork, label, view, copy, open in pi, export); on a ⑂ fork row, open that session’s tree',
    hint: 'actions',
    when: LIST,
  },
  {
    command: 'openParent',
    keys: ['P'],
    description: 'In a fork: open the session it was forked from, on the fork point (Esc comes back)',
    when: 'browse',
  },
  {
    command: 'foldOrUp',
    keys: ['left', 'ctrl+left', 'meta+left'],
    description: 'Fold the branch, else jump up to the previous branch start',
    hint: 'fold',
    when: LIST,
  },
  {
    command: 'unfoldOrDown',
    keys: ['right', 'ctrl+right', 'meta+right'],
    description: 'Unfold, else jump down to the next branch start',
    hint: 'unfold',
    when: LIST,
  },
  {
    command: 'editLabel',
    keys: ['L'],
    description: 'Label the selected entry (empty clears)',
    hint: 'label',
    when: 'browse',
  },
  {
    command: 'filterNext',
    keys: ['ctrl+o'],
    description: 'Next filter: default → no tools → user → labeled → all',
    hint: 'filter',
    when: LIST,
  },
  {
    command: 'filterPrev',
    keys: ['ctrl+shift+o', 'meta+o'],
    description: 'Previous filter (Shift+Ctrl+O needs the kitty keyboard protocol; Alt+O works everywhere)',
    when: LIST,
  },
  {
    command: 'jumpToLeaf',
    keys: ['ctrl+g'],
    description: 'Go to the leaf (where pi resumes)',
    hint: 'leaf',
    when: LIST,
  },
  { command: 'nextMatch', keys: ['ctrl+n'], description: 'Next search match', hint: 'next match', when: 'search' },
  { command: 'prevMatch', keys: ['ctrl+p'], description: 'Previous search match', when: 'search' },
  {
    command: 'copy',
    keys: ['ctrl+x'],
    description:
      'Copy the entry’s full text (wl-copy, xclip, xsel, pbcopy, clip.exe or tmux’s buffer when there is one, else OSC 52)',
    hint: 'copy',
    when: LIST,
  },
  {
    command: 'export',
    keys: ['meta+e'],
    description:
      'Export the branch from the root to the selected entry as Markdown, HTML or JSONL to a new file (the format asked in a menu, then the path); found secrets are redacted unless you choose to keep them',
    hint: 'export',
    when: LIST,
  },
  {
    command: 'undo',
    keys: ['ctrl+z'],
    description:
      'Undo the latest change pi-sessions made, to any session, even after a restart: says what, in which session and project, and when, and asks first (unless this screen made it a moment ago)',
    hint: 'undo',
    when: LIST,
  },
  {
    command: 'redo',
    keys: ['ctrl+y'],
    description: 'Redo: take back the latest undo (while no new change was made since), after saying what it will do',
    hint: 'redo',
    when: LIST,
  },
  // When the footer has to leave hints out, its last one is `? more`: every key is one press away.
  { command: 'help', keys: ['?'], description: 'Show all keys', hint: 'help', hintMore: 'more', when: 'browse' },
  {
    command: 'escape',
    keys: ['escape'],
    description: 'Clear the search; with no search, back to the session list',
    hint: 'back',
    when: 'browse',
  },
  { command: 'escape', keys: ['escape'], description: 'Clear the search', hint: 'clear', when: 'search' },
  { command: 'pageUp', keys: ['pageup'], description: 'Page up', when: LIST },
  { command: 'pageDown', keys: ['pagedown'], description: 'Page down', when: LIST },
  { command: 'first', keys: ['home'], description: 'First row', when: LIST },
  { command: 'last', keys: ['end'], description: 'Last row', when: LIST },
  // The mouse, as the terminal allows (on unless --no-mouse; Shift+drag still selects text in most terminals).
  { command: 'wheelUp', keys: ['wheelup'], description: `Move up ${WHEEL_ROWS} rows`, when: LIST },
  { command: 'wheelDown', keys: ['wheeldown'], description: `Move down ${WHEEL_ROWS} rows`, when: LIST },
  {
    command: 'click',
    keys: ['click'],
    description: 'Select the row clicked; a double click does what Enter does (the actions, or a ⑂ fork’s tree)',
    when: LIST,
  },
  { command: 'filterDefault', keys: ['ctrl+d'], description: 'Filter: default (hide bookkeeping entries)', when: LIST },
  { command: 'filterNoTools', keys: ['ctrl+t'], description: 'Filter: no tool results (again: default)', when: LIST },
  {
    command: 'filterUserOnly',
    keys: ['ctrl+u'],
    description: 'Filter: user messages only (again: default)',
    when: LIST,
  },
  {
    command: 'filterLabeledOnly',
    keys: ['ctrl+l'],
    description: 'Filter: labeled entries only (again: default)',
    when: LIST,
  },
  {
    command: 'filterAll',
    keys: ['ctrl+a'],
    description: 'Filter: every entry, usage entries and turns without text included (again: default)',
    when: LIST,
  },
  { command: 'toggleLabelTimes', keys: ['T'], description: 'Show when each label was set', when: 'browse' },
  { command: 'deleteChar', keys: ['backspace'], description: 'Delete the last character of the query', when: 'search' },
  {
    command: 'deleteWord',
    keys: ['ctrl+w', 'meta+backspace'],
    description: 'Delete the last word of the query',
    when: 'search',
  },
  {
    command: 'detailUp',
    keys: ['up'],
    description: 'Scroll up',
    hint: 'scroll',
    hintWith: 'detailDown',
    when: ['detail', 'help'],
  },
  { command: 'detailDown', keys: ['down'], description: 'Scroll down', when: ['detail', 'help'] },
  { command: 'detailPageUp', keys: ['pageup'], description: 'Page up', when: ['detail', 'help'] },
  {
    command: 'detailPageDown',
    keys: ['pagedown', 'space'],
    description: 'Page down',
    hint: 'page',
    when: ['detail', 'help'],
  },
  { command: 'detailHome', keys: ['home'], description: 'Top', when: ['detail', 'help'] },
  { command: 'detailEnd', keys: ['end'], description: 'Bottom', when: ['detail', 'help'] },
  { command: 'wheelUp', keys: ['wheelup'], description: `Scroll up ${WHEEL_ROWS} lines`, when: ['detail', 'help'] },
  {
    command: 'wheelDown',
    keys: ['wheeldown'],
    description: `Scroll down ${WHEEL_ROWS} lines`,
    when: ['detail', 'help'],
  },
  {
    command: 'closeOverlay',
    keys: ['escape', 'q', 'return', 'ctrl+c'],
    description: 'Close',
    hint: 'close',
    when: ['detail', 'help'],
  },
  { command: 'closeOverlay', keys: ['?'], description: 'Close the help', when: 'help' },
  { command: 'menuDown', keys: ['down', 'j'], description: 'Next choice', hint: 'choose', when: 'menu' },
  { command: 'menuUp', keys: ['up', 'k'], description: 'Previous choice', when: 'menu' },
  // Own bindings, not the keys of the two above: a keybindings.json remap of the select keys keeps the wheel.
  { command: 'menuDown', keys: ['wheeldown'], description: 'Next choice', when: 'menu' },
  { command: 'menuUp', keys: ['wheelup'], description: 'Previous choice', when: 'menu' },
  { command: 'menuChoose', keys: ['return'], description: 'Do the highlighted choice', hint: 'select', when: 'menu' },
  {
    command: 'submit',
    keys: ['return'],
    description: 'Save the label / write the summary / export to the path',
    hint: 'save',
    when: 'prompt',
  },
  // pi's menus and prompts say "escape / ctrl+c cancel": Ctrl+C quits only from the tree itself.
  { command: 'cancel', keys: ['escape', 'ctrl+c'], description: 'Cancel', hint: 'cancel', when: ['menu', 'prompt'] },
  ...textEditBindings('prompt'),
  ...lineEndBindings('prompt'),
  {
    command: 'answerYes',
    keys: ['y', 'Y', 'return'],
    description: 'Do it: undo (or redo) what the question says',
    hint: 'yes',
    when: 'confirm',
  },
  {
    command: 'keep',
    keys: ['escape', 'n', 'N', 'ctrl+c'],
    description: 'Keep it: nothing is undone',
    hint: 'keep',
    when: 'confirm',
  },
  {
    command: 'skip',
    keys: ['s', 'S'],
    description:
      'Skip a change that cannot be undone (the question says why): it stays as it is, and the change before it becomes the latest',
    when: 'confirm',
  },
  {
    command: 'quit',
    keys: ['ctrl+c'],
    description: 'Quit pi-sessions (in a menu, prompt, question or view, Ctrl+C leaves just that)',
  },
];

/** Headings of the modes in the help overlay and the README table. */
export const TREE_MODE_TITLES: Readonly<Record<TreeKeyMode, string>> = {
  browse: 'tree',
  search: 'tree while searching',
  detail: 'detail view',
  help: 'help',
  menu: 'menus',
  prompt: 'label, summary and export path prompts',
  confirm: 'undo question',
};

/**
 * pi's keybindings.json actions that pi's /tree also has (see pi-keybindings.ts). pi's menus and
 * label prompt take the select keys, so ours do too. pi pages with tui.editor.cursorLeft/Right in
 * the list; our ←/→ fold (see the top), so those stay the text cursor's keys in the prompts only.
 */
export const TREE_PI_ACTIONS: SharedActions<TreeCommand> = {
  ...TEXT_EDIT_PI_ACTIONS,
  'tui.editor.deleteCharBackward': { commands: ['deleteChar', 'backspace'], piDefaults: ['backspace'] },
  ...SELECT_MOVE_PI_ACTIONS,
  // The tree's action menu moves with the same keys.
  'tui.select.up': { commands: ['up', 'menuUp'], piDefaults: ['up'] },
  'tui.select.down': { commands: ['down', 'menuDown'], piDefaults: ['down'] },
  'tui.select.confirm': { commands: ['openMenu', 'menuChoose', 'submit'], piDefaults: ['enter'] },
  'tui.select.cancel': { commands: ['escape', 'cancel'], piDefaults: ['escape', 'ctrl+c'] },
  'app.tree.foldOrUp': { commands: ['foldOrUp'], piDefaults: ['ctrl+left', 'alt+left'] },
  'app.tree.unfoldOrDown': { commands: ['unfoldOrDown'], piDefaults: ['ctrl+right', 'alt+right'] },
  'app.tree.editLabel': { commands: ['editLabel'], piDefaults: ['shift+l'] },
  'app.tree.toggleLabelTimestamp': { commands: ['toggleLabelTimes'], piDefaults: ['shift+t'] },
  'app.tree.filter.default': { commands: ['filterDefault'], piDefaults: ['ctrl+d'] },
  'app.tree.filter.noTools': { commands: ['filterNoTools'], piDefaults: ['ctrl+t'] },
  'app.tree.filter.userOnly': { commands: ['filterUserOnly'], piDefaults: ['ctrl+u'] },
  'app.tree.filter.labeledOnly': { commands: ['filterLabeledOnly'], piDefaults: ['ctrl+l'] },
  'app.tree.filter.all': { commands: ['filterAll'], piDefaults: ['ctrl+a'] },
  'app.tree.filter.cycleForward': { commands: ['filterNext'], piDefaults: ['ctrl+o'] },
  'app.tree.filter.cycleBackward': { commands: ['filterPrev'], piDefaults: ['shift+ctrl+o'] },
  'app.message.copy': { commands: ['copy'], piDefaults: ['ctrl+x'] },
};
