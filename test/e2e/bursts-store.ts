/**
 * What the burst suites share: the keys they send, a hand-made store of four sessions (the same
 * path and ids in both runs of a scenario), and `expectSame`, which runs a scenario twice, each
 * time in a fresh app on its own copy of the store: once with the burst written to the pty in ONE
 * write, once a key per write; both must reach the expected screen, and the two screens must be
 * identical.
 */
import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

export const BS = '\u007f';
export const CTRL = { c: '\u0003', r: '\u0012', s: '\u0013' } as const;
/** The mark key (Ctrl+T is the tree's no-tools filter in pi). */
export const MARK = '\u001b[2~';
/** The tree's no-tools filter (pi's key). */
export const CTRL_T = '\u0014';

export interface Store {
  home: TestHome;
  draft: string;
  parser: string;
}

let counter = 0;
function session(cwd: string, prompt: string, name?: string): SessionBuilder {
  counter++;
  const builder = new SessionBuilder({
    id: `${counter.toString(16).padStart(8, 'b')}-0000-7000-8000-000000000000`,
    cwd,
  });
  builder.user(prompt);
  builder.assistant(`Answer about ${prompt}`);
  builder.user(`follow-up on ${prompt}`);
  builder.toolCall('read', { path: 'notes.md' });
  builder.toolResult('read', 'file contents');
  builder.assistant('Done with that');
  if (name) builder.name(name);
  return builder;
}

/**
 * Four sessions in this folder. Each run gets its own store, at the same path as the other run
 * of its scenario (`root`), with the same ids: the screens of both runs can then be compared
 * whole (the cwd is on screen and searchable).
 */
export function makeStore(root?: string): Store {
  counter = 0;
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  const home = makeHome(root);
  const { cwd, projectDir } = home;
  const draft = writeSession(
    session(cwd, 'write the release notes', 'Draft release notes'),
    projectDir,
    '2026-01-04T09-00-00-000Z_draft.jsonl',
    4,
  );
  const parser = writeSession(
    session(cwd, 'parser cache invalidation'),
    projectDir,
    '2026-01-06T09-00-00-000Z_parser.jsonl',
    2,
  );
  writeSession(session(cwd, 'abc search target'), projectDir, '2026-01-03T09-00-00-000Z_abc.jsonl', 6);
  writeSession(session(cwd, 'the fix is to retry'), projectDir, '2026-01-02T09-00-00-000Z_fix.jsonl', 8);
  return { home, draft, parser };
}

export const LIST_READY = /pi sessions 4\/4 · this folder/;

export async function typeText(pty: PtySession, text: string): Promise<void> {
  await pty.press(...[...text]);
}

/**
 * Waits for the list and for its message text to be searchable: the picker prepares the text in
 * idle time after the first paint, and until then a search for words of an unnamed session finds
 * nothing (typed fast or slowly alike). A probe search that finds a first message proves it: the
 * whole probe typed and its row shown, because the screens on the way also count one match ("r"
 * and "re" are in the name "Draft release notes") before any text is prepared.
 */
export async function waitForSearchable(pty: PtySession): Promise<void> {
  await pty.waitForText(LIST_READY);
  await typeText(pty, 'retry');
  await pty.waitForScreen(
    (s) => s.includes('> retry') && /1\/4 · this folder/.test(s) && s.includes('the fix is to retry'),
    'the probe search "retry" finds "the fix is to retry" by its text',
  );
  await pty.press(PTY_KEYS.escape);
  await pty.waitForText(LIST_READY);
}

export interface Scenario {
  /** Keys typed one by one before the burst (the same in both runs). */
  before?: (pty: PtySession, store: Store) => Promise<void>;
  /** The burst: written as one chunk, or one key per write. */
  keys: string[];
  /** The screen both runs must reach. */
  done: (screen: string) => boolean;
  what: string;
  /** After the burst, in both runs (e.g. save and check the file). */
  after?: (pty: PtySession, store: Store) => Promise<void>;
  args?: string[];
}

/** Runs a scenario both ways and returns the two final screens (burst first). */
async function bothWays(scenario: Scenario): Promise<[string, string]> {
  let root: string | undefined;
  const run = async (burst: boolean): Promise<string> => {
    const store = makeStore(root);
    root = store.home.root;
    const pty = startApp(store.home, scenario.args ?? [], { cols: 100, rows: 30 });
    await waitForSearchable(pty);
    await scenario.before?.(pty, store);
    if (burst) pty.write(scenario.keys.join(''));
    else await pty.press(...scenario.keys);
    const screen = await waitForFrame(
      pty,
      scenario.done,
      `${scenario.what} (${burst ? 'keys in one write' : 'one key per write'})`,
    );
    await scenario.after?.(pty, store);
    pty.kill('SIGKILL');
    await pty.waitForExit();
    return screen;
  };
  const burst = await run(true);
  const oneByOne = await run(false);
  return [burst, oneByOne];
}

export async function expectSame(scenario: Scenario): Promise<void> {
  const [burst, oneByOne] = await bothWays(scenario);
  expect(burst).toBe(oneByOne);
}
