/** What the stats screen adds up when opened from the picker: the sessions of its current scope (pure). */
import { currentList, type PickerState, SCOPE_TITLES } from '../picker/reducer.js';

export interface StatsScope {
  paths: string[];
  /** "this folder", "all projects"…, and how much of the list was loaded when it is not complete. */
  scopeTitle: string;
  searched: string;
}

export function statsScopeOf(state: PickerState): StatsScope {
  const list = currentList(state);
  const sessions = list?.sessions ?? [];
  const partial = list && !list.done ? ` (${sessions.length} of ${list.total} listed so far)` : '';
  return {
    paths: sessions.map((s) => s.path),
    scopeTitle: `${SCOPE_TITLES[state.scope]}${partial}`,
    searched: list?.searched ?? '',
  };
}
