/**
 * The dialogs below the list: rename (an input pre-filled with the name, cursor at the end) and
 * the delete, slim and merge prompts and the undo question, which say exactly what will happen before anything does.
 * Each renders exactly `dialogLinesFor(mode)` lines so the layout maths holds.
 */
import { Box, Text } from 'ink';
import { formatAbsoluteDate, formatBytes, plural } from '../../src/format.js';
import { type KeyBinding, keyFor, keyPrompt } from '../../src/keymap/keymap.js';
import { mergeLines } from '../../src/picker/conflict-merge.js';
import { exportTitle } from '../../src/picker/export.js';
import { PICKER_BINDINGS, type PickerCommand } from '../../src/picker/keymap.js';
import { isLive, rowTitle } from '../../src/picker/layout.js';
import { UNDO_QUESTION_LINES } from '../../src/picker/mode.js';
import type { PickerMode } from '../../src/picker/reducer.js';
import { slimLines } from '../../src/picker/slim.js';
import { pickerQuestionChoices } from '../../src/picker/undo.js';
import { MISSING_CWD_LINES, missingCwdTitle } from '../../src/state/missing-cwd.js';
import type { SessionInfo } from '../../src/store/index.js';
import { fitPaths } from '../../src/text/elide-path.js';
import { sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import { Menu } from '../common/Menu.js';
import { TextInputView } from '../common/TextInputView.js';

/** The lines of a delete prompt (pure, exported for tests). */
export function confirmLines(
  mode: Extract<PickerMode, { kind: 'confirm' }>,
  infos: readonly SessionInfo[],
  shownPaths: ReadonlySet<string>,
  nowMs: number,
  bindings: readonly KeyBinding<PickerCommand>[] = PICKER_BINDINGS,
): { title: string; what: string; how: string; warning: string; keys: string } {
  const count = infos.length;
  const total = infos.reduce((sum, i) => sum + i.size, 0);
  let what: string;
  if (count === 1 && infos[0]) {
    const info = infos[0];
    what = `“${rowTitle(info)}” · ${formatBytes(info.size)} · ${plural(info.userMessageCount, 'prompt')} · modified ${formatAbsoluteDate(info.modified)}`;
  } else {
    const times = infos.map((i) => i.modified.getTime());
    const hidden = infos.filter((i) => !shownPaths.has(i.path)).length;
    what = `${plural(count, 'session')} · ${formatBytes(total)} · oldest ${formatAbsoluteDate(Math.min(...times))} · newest ${formatAbsoluteDate(Math.max(...times))}`;
    if (hidden > 0) what += ` · ${hidden} not shown by the current search`;
  }
  const live = infos.filter((i) => isLive(i, nowMs)).length;
  const warning =
    live > 0
      ? `⚠ ${plural(live, 'session')} changed in the last 5 minutes: pi may still be writing to ${live === 1 ? 'it' : 'them'}.`
      : '';
  if (mode.permanent) {
    return {
      // The library's error quotes paths (XDG_DATA_HOME, the file's own name).
      title: `The trash is unavailable (${sanitizeInline(mode.trashProblem ?? 'unknown reason')}).`,
      what,
      how: `Delete ${count === 1 ? 'it' : 'them'} PERMANENTLY instead? This cannot be undone.`,
      warning,
      keys: keyPrompt(bindings, 'confirm', [
        ['confirmYes', 'delete permanently'],
        ['cancel', 'keep'],
      ]),
    };
  }
  const undo = keyFor(bindings, 'undo', 'browse');
  return {
    title: count === 1 ? 'Delete this session?' : `Delete ${plural(count, 'marked session')}?`,
    what,
    how: `${count === 1 ? 'It' : 'They'} will be moved to the trash${undo ? `; ${undo} restores ${count === 1 ? 'it' : 'them'}` : ''}.`,
    warning,
    keys: keyPrompt(bindings, 'confirm', [
      mode.needsYes ? ['confirmYes', 'delete anyway'] : ['confirm', 'delete'],
      ['cancel', 'cancel'],
    ]),
  };
}

export function PickerDialog(props: {
  mode: PickerMode;
  infos: readonly SessionInfo[];
  shownPaths: ReadonlySet<string>;
  width: number;
  nowMs: number;
  bindings: readonly KeyBinding<PickerCommand>[];
}) {
  const { mode, width } = props;
  if (mode.kind === 'rename') {
    const info = props.infos[0];
    return (
      <Box flexDirection="column" height={2} width={width}>
        <Text bold wrap="truncate-end">
          {/* Its keys are the footer's hints. */}
          {fitPaths(truncateToWidth(`Rename “${info ? rowTitle(info) : ''}” (empty clears the name)`, width), width)}
        </Text>
        <TextInputView state={mode.input} width={width} prompt="Name: " placeholder="(no name)" />
      </Box>
    );
  }
  if (mode.kind === 'export') {
    const info = props.infos[0];
    const title = exportTitle(mode, info ? rowTitle(info) : sanitizeInline(mode.path));
    const { step } = mode;
    if (step.kind === 'running')
      return (
        <Box height={1} width={width}>
          <Text bold wrap="truncate-end">
            {truncateToWidth(title, width)}
          </Text>
        </Box>
      );
    if (step.kind === 'path')
      return (
        <Box flexDirection="column" height={2} width={width}>
          <Text bold wrap="truncate-end">
            {/* Its keys are the footer's hints. */}
            {truncateToWidth(title, width)}
          </Text>
          <TextInputView state={step.input} width={width} prompt="Path: " placeholder="(a new file)" />
        </Box>
      );
    const menu = {
      ...step.menu,
      items: step.menu.items.map((item) => ({ ...item, label: truncateToWidth(item.label, Math.max(1, width - 2)) })),
    };
    return (
      <Box flexDirection="column" height={step.menu.items.length + 2} width={width} overflow="hidden">
        <Text bold color={step.kind === 'secrets' ? 'yellow' : undefined} wrap="truncate-end">
          {truncateToWidth(title, width)}
        </Text>
        <Menu menu={menu} />
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(
            keyPrompt(props.bindings, 'menu', [
              ['choose', 'choose'],
              ['cancel', 'cancel'],
            ]),
            width,
          )}
        </Text>
      </Box>
    );
  }
  if (mode.kind === 'missingCwd') {
    const { question } = mode;
    // Labels are cut to the width (never wrapped), so the dialog keeps its MISSING_CWD_LINES.
    const menu = {
      ...question.menu,
      items: question.menu.items.map((item) => ({
        ...item,
        label: truncateToWidth(item.label, Math.max(1, width - 2)),
      })),
    };
    return (
      <Box flexDirection="column" height={MISSING_CWD_LINES} width={width} overflow="hidden">
        <Text bold color="yellow" wrap="truncate-end">
          {truncateToWidth(missingCwdTitle(question), width)}
        </Text>
        <Menu menu={menu} />
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(
            keyPrompt(props.bindings, 'menu', [
              ['choose', 'confirm'],
              ['cancel', 'cancel'],
            ]),
            width,
          )}
        </Text>
      </Box>
    );
  }
  if (mode.kind === 'undoConfirm') {
    const { question } = mode;
    const title =
      question?.title ?? (mode.action === 'undo' ? 'Looking at the latest change…' : 'Looking at the latest undo…');
    return (
      <Box flexDirection="column" height={UNDO_QUESTION_LINES} width={width}>
        <Text bold color={question?.kind === 'blocked' ? 'red' : 'yellow'} wrap="truncate-end">
          {truncateToWidth(title, width)}
        </Text>
        <Box height={UNDO_QUESTION_LINES - 2} overflow="hidden">
          <Text wrap="wrap">{sanitizeInline(question?.text ?? ' ')}</Text>
        </Box>
        <Text bold wrap="truncate-end">
          {truncateToWidth(keyPrompt(props.bindings, 'confirm', pickerQuestionChoices(mode)), width)}
        </Text>
      </Box>
    );
  }
  if (mode.kind !== 'confirm' && mode.kind !== 'slimConfirm' && mode.kind !== 'mergeConfirm') return null;
  const info = props.infos[0];
  const lines =
    mode.kind === 'confirm'
      ? confirmLines(mode, props.infos, props.shownPaths, props.nowMs, props.bindings)
      : mode.kind === 'slimConfirm'
        ? slimLines(mode, info ? rowTitle(info) : sanitizeInline(mode.path), props.bindings)
        : mergeLines(mode, info ? rowTitle(info) : sanitizeInline(mode.path), props.bindings);
  return (
    <Box flexDirection="column" height={5} width={width}>
      <Text bold color="red" wrap="truncate-end">
        {truncateToWidth(fitPaths(lines.title, width), width)}
      </Text>
      <Text wrap="truncate-end">{truncateToWidth(lines.what, width)}</Text>
      <Text wrap="truncate-end">{truncateToWidth(fitPaths(lines.how, width), width)}</Text>
      <Text color="yellow" wrap="truncate-end">
        {truncateToWidth(lines.warning, width) || ' '}
      </Text>
      <Text bold wrap="truncate-end">
        {truncateToWidth(lines.keys, width)}
      </Text>
    </Box>
  );
}
