/**
 * The tree screen before there is a tree: loading, a file that cannot be read, or no entries.
 * Esc and Ctrl+C work here as in the tree.
 */
import { Box, Text } from 'ink';
import { useRef } from 'react';
import { type KeyBinding, keyPrompt, resolveCommand } from '../../src/keymap/keymap.js';
import { sanitizeInline } from '../../src/text/terminal-text.js';
import type { TreeCommand } from '../../src/tree/keymap.js';
import { useKeys } from '../common/input-router.js';
import { useTerminalSize } from '../common/use-terminal-size.js';
import type { TreeExit } from './TreeScreen.js';

export interface TreeMessageProps {
  text: string;
  error?: boolean;
  loading?: boolean;
  bindings: readonly KeyBinding<TreeCommand>[];
  onBack(): void;
  onExit(r: TreeExit): void;
}

export function TreeMessage({ text, error, loading, bindings, onBack, onExit }: TreeMessageProps) {
  const { rows } = useTerminalSize();
  // While the session loads, other keys wait for the tree (the router keeps them); Ctrl+C leaves
  // at once, and so does Esc when no key is waiting before it. An Esc typed after keys that wait
  // is the tree's too: there it clears the search those keys typed, so going back at once would
  // lose them, and only on a machine slow enough to still be loading. On an error screen every
  // other key is ignored.
  const leaving = useRef(false);
  useKeys((keys) => {
    if (leaving.current) return 0;
    for (let i = 0; i < keys.length; i++) {
      // The list's back key (pi's tui.select.cancel, maybe remapped) and Ctrl+C.
      const command = resolveCommand(bindings, keys[i]!.name, 'browse');
      if (command === 'quit' || (command === 'escape' && (!loading || i === 0))) {
        leaving.current = true;
        if (command === 'escape') onBack();
        else onExit({ kind: 'quit', code: 130 });
        return i + 1;
      }
    }
    return loading ? 0 : keys.length;
  });
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} overflow="hidden">
      <Text bold>Session Tree</Text>
      <Text {...(error ? { color: 'red' } : { dimColor: true })} wrap="truncate-end">
        {sanitizeInline(text)}
      </Text>
      <Text dimColor>
        {keyPrompt(bindings, 'browse', [
          ['escape', 'back'],
          ['quit', 'quit'],
        ])}
      </Text>
    </Box>
  );
}
