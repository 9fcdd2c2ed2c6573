/**
 * Keys that arrive in one read (a held key, a fast typist, a slow link) mean exactly what the same
 * keys typed one by one mean. Every scenario runs twice, each time in a fresh app on its
 * own copy of the same store: once with the burst written to the pty in ONE write, once a key per
 * write; both must reach the expected screen, and the two screens must be identical. Stores are
 * hand-made here, and what was written is checked with the real pi 1.6.0 SessionManager.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import {
  E2E_TEST_MS,
  expectRestored,
  makeHome,
  startApp,
  startAppThenStty,
  sttyFlags,
  type TestHome,
  waitForFrame,
  writeSession,
} from './harness.js';

const BS = '\u007f';
const CTRL = { c: '\u0003', r: '\u0012', s: '\u0013' } as const;
/** The mark key (Ctrl+T is the tree's no-tools filter in pi). */
const MARK = '\u001b[2~';
/** The tree's no-tools filter (pi's key). */
const CTRL_T = '\u0014';
const { down, enter, escape: esc, right, tab } = PTY_KEYS;

interface Store {
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
function makeStore(root?: string): Store {
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

const LIST_READY = /pi sessions 4\/4 · this folder/;

async function typeText(pty: PtySession, text: string): Promise<void> {
  await pty.press(...[...text]);
}

/**
 * Waits for the list and for its message text to be searchable: the picker prepares the text in
 * idle time after the first paint, and until then a search for words of an unnamed session finds
 * nothing (typed fast or slowly alike). A probe search that finds a first message proves it: the
 * whole probe typed and its row shown, because the screens on the way also count one match ("r"
 * and "re" are in the name "Draft release notes") before any text is prepared.
 */
async function waitForSearchable(pty: PtySession): Promise<void> {
  await pty.waitForText(LIST_READY);
  await typeText(pty, 'retry');
  await pty.waitForScreen(
    (s) => s.includes('> retry') && /1\/4 · this folder/.test(s) && s.includes('the fix is to retry'),
    'the probe search "retry" finds "the fix is to retry" by its text',
  );
  await pty.press(esc);
  await pty.waitForText(LIST_READY);
}

interface Scenario {
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

async function expectSame(scenario: Scenario): Promise<void> {
  const [burst, oneByOne] = await bothWays(scenario);
  expect(burst).toBe(oneByOne);
}

/** The row under the cursor in the tree (`›` in the first column). */
function cursorRow(screen: string): string {
  return screen.split('\n').find((line) => line.startsWith('›')) ?? '';
}

describe('bursts in the picker', { timeout: E2E_TEST_MS }, () => {
  it('three Backspaces in one read delete three characters of the search', async () => {
    await expectSame({
      before: (pty) => typeText(pty, 'parser'),
      keys: [BS, BS, BS],
      done: (s) => s.includes('> par') && !s.includes('> pars') && s.includes('parser cache invalidation'),
      what: 'the search reads "par"',
    });
  });

  it('"abc→" searches, then → (at the end of the search) opens the best match\'s tree', async () => {
    await expectSame({
      keys: ['a', 'b', 'c', right],
      done: (s) => s.includes('Session Tree') && s.includes('user: abc search target'),
      what: 'the tree of "abc search target" is open',
    });
  });

  it('"Draft\\x12" searches, then Ctrl+R renames the match', async () => {
    await expectSame({
      keys: [...'Draft', CTRL.r],
      done: (s) => s.includes('Rename “Draft release notes”') && s.includes('Name: Draft release notes'),
      what: 'the rename prompt of "Draft release notes" is open',
    });
  });

  it('40 Backspaces in one read empty the rename prompt; the new name is what pi reads', async () => {
    await expectSame({
      before: async (pty) => {
        await typeText(pty, 'Draft');
        await pty.waitForText(/1\/4 · this folder/);
        await pty.press(CTRL.r);
        await pty.waitForText('Name: Draft release notes');
      },
      keys: Array.from({ length: 40 }, () => BS),
      done: (s) => s.includes('Name:  (no name)'),
      what: 'the rename prompt is empty',
      after: async (pty, store) => {
        await typeText(pty, 'E2E renamed session');
        await pty.press(enter);
        // The renamed row no longer matches "Draft": the list empties once the name is saved.
        await pty.waitForText('✓ Renamed');
        const loaded = readSessionSync(store.draft);
        if (!loaded.ok) throw new Error(loaded.message);
        expect(buildTree(loaded).sessionName).toBe('E2E renamed session');
        expect((await openWithPi(store.draft)).manager.getSessionName()).toBe('E2E renamed session');
      },
    });
  });

  it('Tab Tab, Ctrl+S Ctrl+S and Insert (mark) ×3 each act as many times as pressed', async () => {
    await expectSame({
      keys: [tab, tab],
      done: (s) => /4\/4 · all projects/.test(s),
      what: 'the scope is all projects',
    });
    await expectSame({
      keys: [CTRL.s, CTRL.s],
      done: (s) => s.includes('sort: relevance'),
      what: 'the sort is relevance',
    });
    await expectSame({
      keys: [MARK, MARK, MARK],
      done: (s) => s.includes('● 3 marked'),
      what: 'three sessions are marked',
    });
  });

  it('a burst in the help: ? opens it, q closes it, x is typed into the search', async () => {
    // "x" is found in message text: both runs are compared once that text is indexed (the header
    // says "text indexed n/N" until then), or one may be caught before it and one after.
    await expectSame({
      keys: ['?', 'q', 'x'],
      done: (s) => s.includes('> x') && !s.includes('pi-sessions · keys') && !s.includes('text indexed'),
      what: 'help closed and "x" searched',
    });
  });

  it('Ctrl+C Ctrl+C and Esc Esc quit as they do one by one, and the terminal is restored', async () => {
    for (const [keys, code] of [
      [[CTRL.c, CTRL.c], 130],
      [[esc, esc], 0],
    ] as const) {
      for (const burst of [true, false]) {
        const store = makeStore();
        // Under a shell that stays open after the app: the app's last output (leaving the
        // alternate screen) cannot be lost when its process exits, and stty shows the modes.
        const pty = startAppThenStty(store.home, [], { cols: 100, rows: 30 });
        await waitForSearchable(pty);
        await typeText(pty, 'parse');
        await pty.waitForText(/1\/4 · this folder/);
        if (burst) pty.write(keys.join(''));
        else await pty.press(...keys);
        // Esc Esc: the first clears the search, the second quits.
        const after = await pty.waitForText('stty-done');
        expect(after).toContain(`cli-exit=${code}`);
        if (burst) {
          // Keys of one read are all the app's: none reaches the shell as a signal.
          expect(after).not.toContain('sh-saw-sigint');
          expectRestored(pty, sttyFlags(after));
        } else {
          // Typed one by one, a second Ctrl+C may come after the app has given the terminal back,
          // and interrupt the shell's stty: only the screen and cursor are checked then.
          expectRestored(pty, code === 130 ? undefined : sttyFlags(after));
        }
      }
    }
  });
});

describe('bursts in the tree', { timeout: E2E_TEST_MS }, () => {
  // The parser session is the newest: the first row (Home: the probe search may have left the
  // cursor elsewhere). Opened from a full-text hit the tree would start on that hit with its
  // search typed in; these bursts start from the plain tree.
  const toParserRow = async (pty: PtySession): Promise<void> => {
    await pty.waitForText(LIST_READY);
    await pty.press(PTY_KEYS.ctrlHome);
    await pty.waitForScreen(
      (s) => cursorRow(s).includes('parser cache invalidation'),
      'the cursor is on the parser session',
    );
  };
  const openTree = async (pty: PtySession): Promise<void> => {
    await toParserRow(pty);
    await pty.press(right);
    await pty.waitForText('Type to search');
  };

  it('ten Backspaces in one read delete ten characters of the tree search', async () => {
    await expectSame({
      before: async (pty) => {
        await openTree(pty);
        await typeText(pty, 'parser cache');
        await pty.waitForText('Search: parser cache');
      },
      keys: Array.from({ length: 10 }, () => BS),
      done: (s) => s.includes('Search: pa') && !s.includes('Search: par'),
      what: 'the tree search reads "pa"',
    });
  });

  it('a burst through the menu: Enter, ↓↓↓, Enter opens the label prompt', async () => {
    await expectSame({
      before: openTree,
      keys: [enter, down, down, down, enter],
      done: (s) => s.includes('Label (empty to remove):'),
      what: 'the label prompt is open',
    });
  });

  it('40 Backspaces in one read empty the label prompt; the new label is what pi reads', async () => {
    await expectSame({
      before: async (pty) => {
        await openTree(pty);
        await pty.press('L');
        await pty.waitForText('Label (empty to remove):');
        await typeText(pty, 'first label');
        await pty.press(enter);
        // Both the write's acknowledgement (the status) and its read-back (the row; the prompt is
        // pre-filled from it), in whichever order they come: the file watcher may show the row
        // before the write returns, and a status that lands after the next L covers the prompt's hints.
        await pty.waitForScreen(
          (s) => s.includes('◆ [first label] assistant') && s.includes('✓ Labeled [first label]'),
          'the first label is written and shown',
        );
        await pty.press('L');
        await pty.waitForText('Label (empty to remove): first label');
      },
      keys: Array.from({ length: 40 }, () => BS),
      done: (s) => /Label \(empty to remove\): *$/m.test(s),
      what: 'the label prompt is empty',
      after: async (pty, store) => {
        const row = cursorRow(pty.screen());
        await typeText(pty, 'second');
        await pty.press(enter);
        await pty.waitForText('Labeled [second]');
        const loaded = readSessionSync(store.parser);
        if (!loaded.ok) throw new Error(loaded.message);
        const labels = [...buildTree(loaded).labels.values()];
        expect(labels).toEqual(['second']);
        const pi = await openWithPi(store.parser);
        expect(
          pi.manager
            .getEntries()
            .map((e) => pi.manager.getLabel(e.id))
            .filter((l) => l !== undefined),
        ).toEqual(['second']);
        expect(row).not.toBe('');
      },
    });
  });

  it('a burst in the help: ? opens it, q closes it, x starts a search', async () => {
    await expectSame({
      before: openTree,
      keys: ['?', 'q', 'x'],
      done: (s) => s.includes('Search: x'),
      what: 'help closed and "x" searched',
    });
  });

  it('Ctrl+T ×3 toggles the filter three times', async () => {
    await expectSame({
      before: openTree,
      keys: [CTRL_T, CTRL_T, CTRL_T],
      done: (s) => s.includes('[no-tools]'),
      what: 'the no-tools filter is on',
    });
  });

  it('Esc Esc with a search: the first clears it, the second goes back to the list', async () => {
    await expectSame({
      before: async (pty) => {
        await openTree(pty);
        await typeText(pty, 'cache');
        await pty.waitForText('Search: cache');
      },
      keys: [esc, esc],
      done: (s) => LIST_READY.test(s) && !s.includes('Session Tree'),
      what: 'back on the session list',
    });
  });

  it('→ then keys in the same read: the keys reach the tree', async () => {
    await expectSame({
      before: toParserRow,
      keys: [right, 'x', 'y'],
      done: (s) => s.includes('Session Tree') && s.includes('Search: xy'),
      what: 'the tree is open with the search "xy"',
    });
  });
});

describe('bracketed paste', { timeout: E2E_TEST_MS }, () => {
  it('a paste with Enter, Ctrl+C and an arrow in it is text in the search and never a command', async () => {
    const store = makeStore();
    const pty = startAppThenStty(store.home, [], { cols: 100, rows: 30 });
    await waitForSearchable(pty);
    expect(pty.rawOutput()).toContain('\u001b[?2004h');
    // Split across two writes, inside the end marker.
    pty.write('\u001b[200~abc\rsearch\u0003\u001b[B tar');
    pty.write('get\u001b[20');
    pty.write('1~');
    // Cleaned as typed text is: CR becomes a space, control characters (ESC, ^C) are dropped.
    await pty.waitForText('> abc search[B target');
    expect(pty.screen()).toMatch(/0\/4 · this folder/);
    expect(pty.screen()).not.toContain('Session Tree');
    expect(pty.exitCode()).toBeUndefined();
    await pty.press(esc, esc);
    const after = await pty.waitForText('stty-done');
    expect(after).toContain('cli-exit=0');
    expect(pty.rawOutput()).toContain('\u001b[?2004l');
    expectRestored(pty, sttyFlags(after));
  });
});
