import type { Locations } from '../store/index.js';

/** What `pi-sessions` asks the full-screen app to open. */
export interface InteractiveRequest {
  kind: 'picker' | 'tree';
  /** The `<session>` argument of `pi-sessions tree`. */
  session?: string;
  locations: Locations;
  /** `--print`: the session chosen to open (Enter in the picker, Open in pi in either view) is printed instead. */
  print: boolean;
  /**
   * `--print-entry` (the tree; the pi extension passes it): "Resume from here" without a summary on
   * this session writes nothing and prints `entry <id>`: pi moves there itself.
   */
  printEntry?: boolean;
  /** `--all`: start in the all-projects scope. */
  all: boolean;
  /** `--no-cache`: list without the session catalogue (nothing read or written under the cache folder). */
  noCache?: boolean;
  /** `--no-mouse`: no mouse reporting (the terminal keeps its own text selection). */
  noMouse?: boolean;
  /** `--current FILE` (resolved to a path): the session pi is in, marked and never deleted from the picker. */
  current?: string;
  /** `--query TEXT`: the picker opens with this search. */
  query?: string;
  /** What pi-sessions.json holds that could not be used: shown in the first screen's status line. */
  settingsProblems?: readonly string[];
  /** The store is `npm start`'s generated demo (src/start.ts): the picker says so. */
  demo?: boolean;
}
