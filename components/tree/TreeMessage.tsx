/**
 * The tree screen before there is a tree: loading, a file that cannot be read, or no entries.
 * Its keys go to the screen's reducer too; which of them act now and which wait for the tree is
 * the reducer's rule (openingTakes).
 */
import { Box, Text } from 'ink';
import { keyPrompt } from '../../src/keymap/keymap.js';
import { sanitizeInline } from '../../src/text/terminal-text.js';
import { openingTakes, type TreeOpening, type TreeScreenAction, type TreeScreenState } from '../../src/tree/screen.js';
import { treeKey } from '../../src/tree/state.js';
import { useKeys } from '../common/input-router.js';
import type { SyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';

export function TreeMessage({
  state,
  machine,
}: {
  state: TreeOpening;
  machine: SyncReducer<TreeScreenState, TreeScreenAction>;
}) {
  const { rows } = useTerminalSize();
  const router = useKeys((keys) => {
    const current = machine.ref.current;
    if (current.kind !== 'opening') return 0;
    const taken = openingTakes(current, keys);
    // The key that decided (Ctrl+C, or the back key); those before it were typed for a tree never shown.
    if (taken > 0) machine.dispatch(treeKey(keys[taken - 1]!));
    // Left: what is typed next waits in the terminal for whoever reads next.
    if (taken > 0) router.hold();
    return taken;
  });
  const { message } = state;
  const text = message === null ? `Loading ${state.start.path}…` : message.text;
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} overflow="hidden">
      <Text bold>Session Tree</Text>
      <Text {...(message?.error ? { color: 'red' } : { dimColor: true })} wrap="truncate-end">
        {sanitizeInline(text)}
      </Text>
      <Text dimColor>
        {keyPrompt(state.start.bindings, 'browse', [
          ['escape', 'back'],
          ['quit', 'quit'],
        ])}
      </Text>
    </Box>
  );
}
