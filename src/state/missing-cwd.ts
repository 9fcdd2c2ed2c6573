/**
 * The question pi asks when a session's folder is gone (pi 1.6.0 core/session-cwd.js
 * getMissingSessionCwdOptions), asked before pi is started so nothing fails and nothing is
 * written first. Both screens use it: the picker's resume and the tree's "Open in pi".
 *
 * "Continue" runs `pi --session <path>` from the current folder. "Fork" is what pi's
 * `--fork <path>` does (SessionManager.forkFrom): a new file in the current folder's session
 * directory with a new id, the current folder as its cwd, `parentSession` pointing at the
 * original, and every entry copied; the original is not touched. pi itself writes it (see
 * pi-launch.ts), so the result is exactly what pi would make, and pi starts on it without asking.
 */
import { sanitizeInline } from '../text/terminal-text.js';
import { type MenuState, openMenu } from './menu.js';

export type MissingCwdChoice = 'continue' | 'fork' | 'cancel';

export interface MissingCwd {
  /** The session's stored cwd, which does not exist. */
  readonly sessionCwd: string;
  /** Where pi-sessions runs: the folder offered instead. */
  readonly here: string;
  readonly menu: MenuState<MissingCwdChoice>;
}

export function missingCwdQuestion(sessionCwd: string, here: string): MissingCwd {
  const shown = sanitizeInline(here);
  return {
    sessionCwd,
    here,
    menu: openMenu<MissingCwdChoice>([
      // pi 1.6.0 has no option to take this answer: `pi --session` from here asks its own question
      // once more (checked side by side), so the label says so rather than surprise.
      { label: `Continue in ${shown} (pi confirms once more, and asks again next time)`, value: 'continue' },
      { label: `Fork into ${shown} (new session ID, original kept)`, value: 'fork' },
      { label: 'Cancel', value: 'cancel' },
    ]),
  };
}

/** The question's title line, as pi words it. */
export function missingCwdTitle(question: MissingCwd): string {
  return `The session's folder does not exist: ${sanitizeInline(question.sessionCwd)}`;
}

/** Lines the question takes on screen: the title, the three choices and the key hint line. */
export const MISSING_CWD_LINES = 5;
