/**
 * "Open in pi" from the tree (an entry, or the file a fork just made), checked before anything is
 * written: pi must be on the PATH and the session's folder must exist. A failure writes nothing
 * (the leaf is only moved once pi can start); a missing folder asks pi's question
 * (src/state/missing-cwd.ts). Pure: decisions, and the state changes that carry them out; the
 * screen runs the probe (`checkOpen`) and the hand-over (`openInPi`).
 */
import { launchCommand } from '../pi-launch.js';
import { type MissingCwd, type MissingCwdChoice, missingCwdQuestion } from '../state/missing-cwd.js';
import type { OpenChecked, OpenFacts, OpenTarget } from './open-target.js';
import { BROWSE, leafIdOf, queue, type TreeAction, type TreeState, withStatus } from './state.js';

export type { OpenChecked, OpenFacts, OpenTarget };

export type OpenDecision =
  | { kind: 'open'; target: OpenTarget; cwd: string; fork?: true }
  | { kind: 'ask'; target: OpenTarget; question: MissingCwd }
  | { kind: 'refuse'; message: string };

export function decideOpen(checked: OpenChecked, facts: OpenFacts): OpenDecision {
  const { target } = checked;
  if (!checked.piFound) {
    const file = target.kind === 'file' ? target.path : facts.path;
    const command = launchCommand({ path: file, cwd: checked.cwdExists ? facts.sessionCwd : facts.here });
    const movesLeaf = target.kind === 'entry' && target.id !== facts.leafId;
    return {
      kind: 'refuse',
      message: `pi is not on your PATH, so nothing was written. ${movesLeaf ? 'Resume from here, then run' : 'Run'}: ${command}`,
    };
  }
  if (!checked.cwdExists) return { kind: 'ask', target, question: missingCwdQuestion(facts.sessionCwd, facts.here) };
  return { kind: 'open', target, cwd: facts.sessionCwd };
}

/** The answer to the missing-folder question: open in the current folder (continue or fork), or nothing. */
export function decideChoice(
  choice: MissingCwdChoice | undefined,
  target: OpenTarget,
  question: MissingCwd,
): OpenDecision | undefined {
  if (choice === 'continue') return { kind: 'open', target, cwd: question.here };
  if (choice === 'fork') return { kind: 'open', target, cwd: question.here, fork: true };
  return undefined;
}

/** `check-open`'s answer: hand over, ask about the folder, or say why not. */
export function openChecked(state: TreeState, action: Extract<TreeAction, { type: 'openChecked' }>): TreeState {
  const decision = decideOpen(action, {
    path: action.path,
    sessionCwd: action.sessionCwd,
    here: action.here,
    leafId: leafIdOf(state),
  });
  // The check held the keys back; a refusal or the question takes them again.
  return applyOpen({ ...state, busy: false, leaving: false }, decision);
}

/** The missing-folder question's answer (Esc: cancel). */
export function answerMissingCwd(state: TreeState, choice: MissingCwdChoice | undefined): TreeState {
  const asked = state.mode;
  if (asked.kind !== 'missingCwd') return { ...state, mode: BROWSE };
  return applyOpen(state, decideChoice(choice, asked.target, asked.question));
}

function applyOpen(state: TreeState, decision: OpenDecision | undefined): TreeState {
  const browse: TreeState = { ...state, mode: BROWSE };
  if (decision === undefined)
    return withStatus(browse, { text: 'Open in pi cancelled: nothing was written', tone: 'info' });
  switch (decision.kind) {
    case 'refuse':
      return withStatus(browse, { text: decision.message, tone: 'error' });
    case 'ask':
      return {
        ...state,
        mode: {
          kind: 'missingCwd',
          target: decision.target,
          question: decision.question,
          menu: decision.question.menu,
        },
        status: null,
      };
    case 'open':
      return queue(
        { ...browse, busy: true, status: { text: 'Opening in pi…', tone: 'info' } },
        {
          kind: 'openInPi',
          target: decision.target,
          cwd: decision.cwd,
          ...(decision.fork ? { fork: true as const } : {}),
        },
      );
  }
}
