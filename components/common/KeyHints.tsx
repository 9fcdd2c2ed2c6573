/**
 * One-line footer of key hints generated from the keymap, so the footer can never advertise a
 * key that doesn't work. Hints that don't fit are dropped (see `footerHints`), never wrapped.
 */
import { Text } from 'ink';
import { memo } from 'react';
import { footerHints, HINT_SEPARATOR, type KeyBinding } from '../../src/keymap/keymap.js';

export interface KeyHintsProps<C extends string> {
  bindings: readonly KeyBinding<C>[];
  /** Current input mode; bindings with another `when` are not shown. */
  mode?: string;
  /** Available columns. */
  width: number;
}

function KeyHintsView<C extends string>({ bindings, mode, width }: KeyHintsProps<C>) {
  const items = footerHints(bindings, mode, width);
  return (
    <Text dimColor wrap="truncate-end">
      {items.map((item, i) => (
        <Text key={`${item.key} ${item.label}`}>
          {i > 0 ? HINT_SEPARATOR : ''}
          <Text bold>{item.key}</Text> {item.label}
        </Text>
      ))}
    </Text>
  );
}

/**
 * Not drawn again while the keymap, mode and width are the same: the footer's other part, the
 * cursor's position, changes on every move, the hints only with the mode.
 */
export const KeyHints = memo(KeyHintsView) as typeof KeyHintsView;
