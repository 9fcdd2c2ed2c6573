/**
 * The tree screen's boxes over the list: the entry menu, pi's missing-folder question, the fork's
 * menu, undo's question, the export dialog.
 */
import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { keyPrompt } from '../../src/keymap/keymap.js';
import { exportDialogTitle } from '../../src/state/export-dialog.js';
import { missingCwdTitle } from '../../src/state/missing-cwd.js';
import { sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import { displayString } from '../../src/tree/entry-display.js';
import { displayOf } from '../../src/tree/flatten.js';
import { RETAINED_ROW_NOTE, selectedRow, type TreeState } from '../../src/tree/reducer.js';
import { treeQuestionChoices } from '../../src/tree/undo.js';
import { Menu } from '../common/Menu.js';
import { TextInputView } from '../common/TextInputView.js';

/** How much of the entry's text the export dialog's title quotes. */
const EXPORT_SUBJECT_WIDTH = 40;

/** The box over the list in a menu or question mode; null in the others (the body shows). */
export function treeOverlay(state: TreeState, width: number): ReactElement | null {
  const mode = state.mode;
  switch (mode.kind) {
    case 'menu': {
      const row = selectedRow(state);
      const title = row
        ? truncateToWidth(
            `${row.retainedBy !== undefined ? 'Retained' : 'Entry'}: ${displayString(displayOf(state.index, row.num))}`,
            width - 2,
          )
        : 'Entry';
      // A retained message is not an entry: the menu says why it offers only View and Copy.
      const note =
        row?.retainedBy !== undefined
          ? `${RETAINED_ROW_NOTE} (kept by compaction ${sanitizeInline(row.retainedBy)}).`
          : undefined;
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold wrap="truncate-end">
            {title}
          </Text>
          {note !== undefined ? (
            <Text dimColor wrap="wrap">
              {note}
            </Text>
          ) : null}
          <Menu menu={mode.menu} />
        </Box>
      );
    }
    case 'missingCwd':
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold color="yellow" wrap="truncate-end">
            {missingCwdTitle(mode.question)}
          </Text>
          <Menu menu={mode.menu} />
        </Box>
      );
    case 'forkDone':
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text wrap="truncate-end">{`New session: ${sanitizeInline(mode.path)}`}</Text>
          {mode.editorText !== null ? (
            <Text wrap="truncate-end">{`Message to re-send: ${sanitizeInline(mode.editorText)}`}</Text>
          ) : null}
          <Menu menu={mode.menu} />
        </Box>
      );
    case 'undoConfirm': {
      const question = mode.question;
      if (!question)
        return (
          <Box flexDirection="column" borderStyle="round" paddingX={1}>
            <Text wrap="truncate-end">
              {mode.action === 'undo' ? 'Looking at the latest change…' : 'Looking at the latest undo…'}
            </Text>
          </Box>
        );
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold color={question.kind === 'blocked' ? 'red' : 'yellow'} wrap="truncate-end">
            {question.title}
          </Text>
          <Text wrap="wrap">{sanitizeInline(question.text)}</Text>
          <Text bold wrap="truncate-end">
            {keyPrompt(state.bindings, 'confirm', treeQuestionChoices(question))}
          </Text>
        </Box>
      );
    }
    case 'export': {
      const num = state.index.numOf.get(mode.targetId);
      const text = num === undefined ? mode.targetId : displayString(displayOf(state.index, num));
      const { step } = mode;
      const title = truncateToWidth(
        exportDialogTitle(step, 'the branch from the root to', truncateToWidth(text, EXPORT_SUBJECT_WIDTH)),
        width - 4,
      );
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold color={step.kind === 'secrets' ? 'yellow' : undefined} wrap="truncate-end">
            {title}
          </Text>
          {step.kind === 'path' ? (
            <TextInputView state={step.input} width={width - 4} prompt="Path: " placeholder="(a new file)" />
          ) : step.kind === 'running' ? null : (
            <Menu menu={step.menu} />
          )}
        </Box>
      );
    }
    default:
      return null;
  }
}
