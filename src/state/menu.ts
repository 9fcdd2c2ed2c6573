/**
 * A vertical menu's state (pure): its items and the highlighted one. The highlight lives in the
 * screen's reducer state, so keys that arrive together move it exactly as keys typed one by one
 * do, and the view (components/common/Menu.tsx) only draws it.
 */
export interface MenuItem<V extends string> {
  readonly label: string;
  readonly value: V;
}

export interface MenuState<V extends string> {
  readonly items: readonly MenuItem<V>[];
  /** The highlighted item, 0..items.length-1. */
  readonly index: number;
}

export function openMenu<V extends string>(items: readonly MenuItem<V>[]): MenuState<V> {
  return { items, index: 0 };
}

/** Moves the highlight by `delta`, wrapping at both ends (as ink-select-input and pi's menus do). */
export function moveMenu<V extends string>(menu: MenuState<V>, delta: number): MenuState<V> {
  const count = menu.items.length;
  if (count === 0) return menu;
  const index = (((menu.index + delta) % count) + count) % count;
  return index === menu.index ? menu : { ...menu, index };
}

export function chosenValue<V extends string>(menu: MenuState<V>): V | undefined {
  return menu.items[menu.index]?.value;
}
