/**
 * The stats screen's reducer (pure): the report arriving, a resize, and every key through the
 * screen's bindings (./keymap.ts), the mouse's included (./mouse.ts). The state and its moves are
 * in ./screen-state.ts.
 */

import type { KeyName } from '../keymap/key-name.js';
import { resolveCommand } from '../keymap/keymap.js';
import type { MouseEvent } from '../keymap/tokenize.js';
import { isListMouseCommand } from '../state/list-mouse.js';
import { pageStep } from '../state/viewport.js';
import { statsMouse } from './mouse.js';
import {
  cyclePeriod,
  keepSelectionInView,
  moveOrScroll,
  openSelected,
  type StatsAction,
  type StatsScreenState,
  scrollTo,
} from './screen-state.js';

export function statsReducer(state: StatsScreenState, action: StatsAction): StatsScreenState {
  switch (action.type) {
    case 'loaded':
      return keepSelectionInView({ ...state, load: { kind: 'loaded', report: action.report }, offset: 0 });
    case 'failed':
      return { ...state, load: { kind: 'failed', message: action.message } };
    case 'resize': {
      const resized = { ...state, columns: action.columns, viewLines: Math.max(1, action.viewLines) };
      // Narrower means more lines (labels cut, not wrapped, so usually the same count): keep the offset in range.
      return scrollTo(resized, state.offset);
    }
    case 'key':
      return keyCommand(state, action.name, action.mouse, action.nowMs);
  }
}

function keyCommand(
  state: StatsScreenState,
  name: KeyName | undefined,
  mouse: MouseEvent | undefined,
  nowMs: number | undefined,
): StatsScreenState {
  if (state.leaving) return state;
  const command = resolveCommand(state.bindings, name, state.mode);
  if (command === 'quit') return { ...state, leaving: { kind: 'quit' } };
  if (state.mode === 'help') return command === 'closeHelp' ? { ...state, mode: 'view' } : state;
  if (isListMouseCommand(command)) return statsMouse(state, command, mouse, nowMs);
  const page = pageStep(state.viewLines);
  switch (command) {
    case 'back':
      return { ...state, leaving: { kind: 'back' } };
    case 'open':
      return openSelected(state);
    case 'help':
      return { ...state, mode: 'help' };
    case 'up':
      return moveOrScroll(state, -1);
    case 'down':
      return moveOrScroll(state, 1);
    case 'pageUp':
      return scrollTo(state, state.offset - page);
    case 'pageDown':
      return scrollTo(state, state.offset + page);
    case 'top':
      return scrollTo(state, 0);
    case 'bottom':
      return scrollTo(state, Number.MAX_SAFE_INTEGER);
    case 'period':
      return cyclePeriod(state, 1);
    case 'periodBack':
      return cyclePeriod(state, -1);
    default:
      return state;
  }
}
