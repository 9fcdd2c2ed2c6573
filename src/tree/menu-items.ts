/** The tree's two menus: the actions on an entry (Enter) and the choice after a fork. */
import type { MenuItem } from '../state/menu.js';

export type MenuAction = 'resume' | 'resumeSummary' | 'fork' | 'label' | 'view' | 'copy' | 'open' | 'export' | 'cancel';

export type ForkAction = 'openFork' | 'stay';

export const MENU_ITEMS: readonly MenuItem<MenuAction>[] = [
  { label: 'Resume from here', value: 'resume' },
  { label: 'Resume from here with a summary…', value: 'resumeSummary' },
  { label: 'Fork to a new session', value: 'fork' },
  { label: 'Label…', value: 'label' },
  { label: 'View', value: 'view' },
  { label: 'Copy', value: 'copy' },
  { label: 'Open in pi', value: 'open' },
  { label: 'Export the branch to here…', value: 'export' },
  { label: 'Cancel', value: 'cancel' },
];

export const FORK_ITEMS: readonly MenuItem<ForkAction>[] = [
  { label: 'Open the new session in pi', value: 'openFork' },
  { label: 'Stay here', value: 'stay' },
];
