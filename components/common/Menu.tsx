/**
 * A vertical menu, drawn from its state (src/state/menu.ts): ink-select-input's own indicator and
 * item views, without its input hook. The highlight is the reducer's, so nothing is remounted
 * when it moves and no key can slip past a menu that is still mounting.
 */
import { Box } from 'ink';
import { Indicator, Item } from 'ink-select-input';
import type { MenuState } from '../../src/state/menu.js';

export function Menu<V extends string>({ menu }: { menu: MenuState<V> }) {
  return (
    <Box flexDirection="column">
      {menu.items.map((item, i) => (
        <Box key={item.value}>
          <Indicator isSelected={i === menu.index} />
          <Item label={item.label} isSelected={i === menu.index} />
        </Box>
      ))}
    </Box>
  );
}
