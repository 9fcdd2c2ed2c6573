/**
 * The session picker, end to end: the built CLI in a real pseudo-terminal (node-pty) whose output
 * is parsed by a headless xterm, so every assertion is about what a person would see. Stores are
 * generated per test in a temp dir (the app's store generator for the other projects, hand-made sessions
 * with known titles in the current folder); the trash lives under a temporary XDG_DATA_HOME.
 * Files are checked afterwards with the store and with the real pi 1.6.0 SessionManager.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, encodeCwd, readSessionSync } from '../../src/store/index.js';
import { writeStore } from '../../src/tools/generate/store.js';
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
  trashedPaths,
  writeSession,
} from './harness.js';

/** Alt+A marks all shown (Ctrl+A is pi's line start); Ctrl+D deletes the marked sessions. */
const MARK_ALL = '\u001ba';
const CTRL = {
  d: '\u0004',
  o: '\u000f',
  r: '\u0012',
  s: '\u0013',
  u: '\u0015',
  z: '\u001a',
} as const;

interface PickerStore {
  home: TestHome;
  named: string;
  obsolete: string[];
  keeper: string;
  nested: string;
}

let counter = 0;
function session(cwd: string, prompt: string, options: { name?: string; ageDays?: number } = {}): SessionBuilder {
  counter++;
  // Ids differ in their first characters: the preview shows them truncated.
  const builder = new SessionBuilder({
    id: `${counter.toString(16).padStart(8, 'e')}-0000-7000-8000-000000000000`,
    cwd,
  });
  builder.user(prompt);
  builder.assistant(`Answer about ${prompt}`);
  if (options.name) builder.name(options.name);
  return builder;
}

/**
 * This folder: one named session, three "obsolete experiment" sessions (cleanup targets), one
 * keeper. A sub-folder with one session (scope "this folder and sub-folders"), and 3 generated
 * projects (scope "all projects").
 */
function pickerStore(): PickerStore {
  const home = makeHome();
  writeStore(home.sessionsRoot, { projects: 3, sessions: 12, entries: 16, toolBytes: 300, seed: 11 });
  const { cwd, projectDir } = home;
  const named = writeSession(
    session(cwd, 'plan the zebra crossing', { name: 'Zebra crossing plan' }),
    projectDir,
    '2026-01-05T09-00-00-000Z_named.jsonl',
    10,
  );
  const obsolete = ['one', 'two', 'three'].map((word, i) =>
    writeSession(
      session(cwd, `obsolete experiment ${word}`),
      projectDir,
      `2025-06-0${i + 1}T09-00-00-000Z_obsolete-${word}.jsonl`,
      200 + i,
    ),
  );
  const keeper = writeSession(
    session(cwd, 'keep this migration work'),
    projectDir,
    '2026-01-06T09-00-00-000Z_keeper.jsonl',
    5,
  );
  const subCwd = join(cwd, 'sub');
  mkdirSync(subCwd);
  const subDir = join(home.sessionsRoot, encodeCwd(subCwd));
  mkdirSync(subDir);
  const nested = writeSession(
    session(subCwd, 'nested folder session'),
    subDir,
    '2026-01-07T09-00-00-000Z_nested.jsonl',
    3,
  );
  return { home, named, obsolete, keeper, nested };
}

/** Starts the picker and waits for the first full list of this folder. */
async function startPicker(
  store: PickerStore,
  args: string[] = [],
  size = { cols: 110, rows: 30 },
): Promise<PtySession> {
  const pty = startApp(store.home, args, size);
  await pty.waitForText(/pi sessions 5\/5 · this folder/);
  await pty.waitForText('keep this migration work');
  return pty;
}

async function typeText(pty: PtySession, text: string): Promise<void> {
  await pty.press(...text.split(''));
}

describe('picker in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('starts on this folder; search narrows the list; sort, scope and preview change the view', async () => {
    const store = pickerStore();
    const pty = await startPicker(store);
    expect(pty.isAlternateScreen()).toBe(true);
    expect(pty.cursorHidden()).toBe(true);
    // The whole first frame: ink may write it in more than one chunk.
    const titles = [
      'Zebra crossing plan',
      'obsolete experiment one',
      'obsolete experiment three',
      'keep this migration work',
    ];
    const first = await pty.waitForScreen(
      (s) => titles.every((title) => s.includes(title)),
      'every row of this folder',
    );
    expect(first).not.toContain('nested folder session');

    await typeText(pty, 'obsolete');
    await pty.waitForText(/3\/5 · this folder/);
    const screen = pty.screen();
    expect(screen).toContain('obsolete experiment two');
    expect(screen).not.toContain('keep this migration work');
    expect(screen).not.toContain('Zebra crossing plan');
    // A token that matches nothing: a distinct empty state, not a blank screen.
    await typeText(pty, ' qqqzzz');
    await pty.waitForText(/0\/5 · this folder/);
    // Esc clears the whole query first (it does not quit).
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/5\/5 · this folder/);

    await pty.press(CTRL.s);
    await pty.waitForText('sort: recent');
    await pty.press(CTRL.s);
    await pty.waitForText('sort: relevance');

    await pty.press(PTY_KEYS.tab);
    await pty.waitForText(/6\/6 · this folder and sub-folders/);
    expect(pty.screen()).toContain('nested folder session');
    await pty.press(PTY_KEYS.tab);
    await pty.waitForText(/18\/18 · all projects/);
    await pty.press(PTY_KEYS.shiftTab, PTY_KEYS.shiftTab);
    await pty.waitForText(/5\/5 · this folder/);

    // Preview follows the cursor: the selected session's id and absolute dates.
    await pty.press(PTY_KEYS.ctrlHome, CTRL.o);
    const firstId = /Id\s+(e+[0-9a-f]+)-/.exec(await pty.waitForText(/Id\s+e+[0-9a-f]+-/))?.[1];
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen(
      (text) => /Id\s+e+[0-9a-f]+-/.test(text) && !text.includes(`${firstId}-`),
      'the preview shows the next session',
    );
    expect(pty.screen()).toMatch(/Modified\s+\d{4}-\d\d-\d\d/);
    await pty.press(CTRL.o);
    await pty.waitForScreen((text) => !/Id\s+e+[0-9a-f]+-/.test(text), 'the preview is closed');

    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('renames inline: the row updates at once, and the store and pi read the new name', async () => {
    const store = pickerStore();
    const pty = await startPicker(store);
    await typeText(pty, 'zebra');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “Zebra crossing plan”');
    // Pre-filled with the current name.
    expect(pty.screen()).toContain('Name: Zebra crossing plan');
    await pty.press(CTRL.u);
    await typeText(pty, 'Zebra plan, renamed');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('✓ Renamed');
    await pty.waitForText('★ Zebra plan, renamed');

    const loaded = readSessionSync(store.named);
    if (!loaded.ok) throw new Error(loaded.message);
    expect(buildTree(loaded).sessionName).toBe('Zebra plan, renamed');
    const pi = await openWithPi(store.named);
    expect(pi.changedOnOpen).toBe(false);
    expect(pi.manager.getSessionName()).toBe('Zebra plan, renamed');

    // Esc cancels a rename without writing.
    const before = readFileSync(store.named);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “Zebra plan, renamed”');
    await typeText(pty, ' never saved');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((text) => !text.includes('Rename “'), 'the rename dialog is closed');
    expect(readFileSync(store.named).equals(before)).toBe(true);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it("Ctrl+C cancels the rename and the delete prompts (pi's escape / ctrl+c cancel), one key at a time and in one write; from the list it quits", async () => {
    const store = pickerStore();
    const before = readFileSync(store.keeper);
    const pty = await startPicker(store);
    await typeText(pty, 'keep this');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “keep this migration work”');
    await typeText(pty, 'xyz');
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForScreen((text) => !text.includes('Rename “'), 'the rename prompt is closed');
    await pty.press(CTRL.d);
    await pty.waitForText('Delete this session?');
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForText('Delete cancelled');
    // The prompt opened and cancelled by one write, as a fast typist's keys arrive together.
    pty.write(`${CTRL.r}abc${PTY_KEYS.ctrlC}${CTRL.d}${PTY_KEYS.ctrlC}`);
    await pty.waitForScreen(
      (text) => !text.includes('Rename “') && !text.includes('Delete this session?') && /Delete cancelled/.test(text),
      'both prompts opened and cancelled',
    );
    // Still running, back in the list: the next Ctrl+R opens a rename again.
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “keep this migration work”');
    expect(pty.screen()).not.toContain('abc');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((text) => !text.includes('Rename “'), 'the rename prompt is closed');
    expect(readFileSync(store.keeper).equals(before)).toBe(true);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it('deletes to the trash under XDG_DATA_HOME and undo restores the same bytes', async () => {
    const store = pickerStore();
    const target = store.obsolete[0]!;
    const bytes = readFileSync(target);
    const pty = await startPicker(store);
    // A phrase: a plain `one` would also abbreviate "obsolete experiment two" (pi's subsequence tier).
    await typeText(pty, '"experiment one"');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(CTRL.d);
    await pty.waitForText('Delete this session?');
    const prompt = pty.screen();
    expect(prompt).toContain('“obsolete experiment one”');
    expect(prompt).toContain('moved to the trash');
    // Esc keeps it.
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Delete cancelled');
    expect(existsSync(target)).toBe(true);

    await pty.press(CTRL.d);
    await pty.waitForText('Delete this session?');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Moved 1 session to the trash');
    expect(existsSync(target)).toBe(false);
    expect(trashedPaths(store.home)).toEqual([target]);

    await pty.press(CTRL.z);
    await pty.waitForText('Undid the delete of ');
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(trashedPaths(store.home)).toEqual([]);
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/5\/5 · this folder/);
    expect(pty.screen()).toContain('obsolete experiment one');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
  });

  it('cleans up: marks every match of a query, deletes them in one step after a summary, undoes the batch', async () => {
    const store = pickerStore();
    const pty = await startPicker(store);
    await typeText(pty, 'obsolete');
    await pty.waitForText(/3\/5 · this folder/);
    await pty.press(MARK_ALL);
    await pty.waitForText('Marked 3 shown sessions');
    expect(pty.screen().match(/^.● /gm)).toHaveLength(3);
    await pty.press(CTRL.d);
    await pty.waitForText('Delete 3 marked sessions?');
    expect(pty.screen()).toMatch(/3 sessions · [\d.]+ KB · oldest \d{4}-\d\d-\d\d.* · newest \d{4}-\d\d-\d\d/);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Moved 3 sessions to the trash');
    for (const path of store.obsolete) expect(existsSync(path)).toBe(false);
    expect(existsSync(store.keeper)).toBe(true);
    expect(existsSync(store.named)).toBe(true);
    expect(trashedPaths(store.home)).toEqual([...store.obsolete].sort());

    await pty.press(CTRL.z);
    await pty.waitForText('Undid the delete of 3 sessions');
    for (const path of store.obsolete) expect(existsSync(path)).toBe(true);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('re-lays out at 40×12 and back', async () => {
    const store = pickerStore();
    const pty = await startPicker(store, [], { cols: 110, rows: 30 });
    pty.resize(40, 12);
    // Narrow: the header drops its "pi sessions" prefix, rows are truncated with an ellipsis.
    // Wait for the whole frame (header to footer): ink may write it in more than one chunk.
    const narrow = await pty.waitForScreen(
      (s) => /^5\/5 · this folder/m.test(s) && /Enter resume/.test(s),
      'the narrow frame with its footer',
    );
    const lines = narrow.split('\n');
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(narrow).toContain('…');
    expect(narrow).toMatch(/→ tree {2}Enter resume/);
    pty.resize(110, 30);
    const wide = await pty.waitForText(/pi sessions 5\/5 · this folder/);
    expect(wide).toContain('keep this migration work');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('--print: Enter prints the chosen path and exits 0; Esc exits 1', async () => {
    const store = pickerStore();
    const pty = await startPicker(store, ['--print']);
    await typeText(pty, 'keep this');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    // The path is printed on the main screen, after the alternate screen is left.
    const raw = pty.rawOutput();
    const afterLeave = raw.slice(raw.lastIndexOf('\u001b[?1049l'));
    expect(afterLeave).toContain(`${store.keeper}\r\n`);

    const esc = await startPicker(store, ['--print']);
    await esc.press(PTY_KEYS.escape);
    expect(await esc.waitForExit()).toBe(1);
    expectRestored(esc);
  });
});

describe('Ctrl+C restores the terminal wherever it is pressed', { timeout: E2E_TEST_MS }, () => {
  // Each step's keys are pressed once the previous step's screen is shown. In a dialog, prompt or
  // menu (`closes`: its text) the first Ctrl+C cancels it, as pi's do, and the next one quits.
  const states: { name: string; steps: { keys: string[]; shows: string | RegExp }[]; closes?: string | RegExp }[] = [
    { name: 'the list', steps: [] },
    { name: 'a search', steps: [{ keys: ['o', 'b', 's'], shows: /3\/5 · this folder/ }] },
    { name: 'the preview', steps: [{ keys: [CTRL.o], shows: /Id\s+e+[0-9a-f]+-/ }] },
    { name: 'the rename dialog', steps: [{ keys: [CTRL.r], shows: 'Rename “' }], closes: 'Rename “' },
    {
      name: 'the delete prompt',
      steps: [{ keys: [CTRL.d], shows: 'Delete this session?' }],
      closes: 'Delete this session?',
    },
    { name: 'the key help', steps: [{ keys: ['?'], shows: 'pi-sessions · keys' }], closes: 'pi-sessions · keys' },
    { name: 'the tree view', steps: [{ keys: [PTY_KEYS.right], shows: '◆ assistant: Answer about keep' }] },
    {
      name: 'the tree action menu',
      steps: [
        { keys: [PTY_KEYS.right], shows: '◆ assistant: Answer about keep' },
        { keys: [PTY_KEYS.enter], shows: 'Resume from here' },
      ],
      closes: 'Resume from here',
    },
    {
      name: 'the tree label input',
      steps: [
        { keys: [PTY_KEYS.right], shows: '◆ assistant: Answer about keep' },
        { keys: ['L'], shows: /Label/ },
      ],
      closes: 'Label (empty to remove)',
    },
  ];
  for (const state of states) {
    it(`in ${state.name}: main screen, cursor shown, echo and canonical mode back on`, async () => {
      const store = pickerStore();
      const pty = startAppThenStty(store.home, [], { cols: 110, rows: 40 });
      await pty.waitForText(/pi sessions 5\/5 · this folder/);
      await pty.waitForText('keep this migration work');
      for (const step of state.steps) {
        await pty.press(...step.keys);
        await pty.waitForText(step.shows);
      }
      if (state.closes !== undefined) {
        const closes = state.closes;
        await pty.press(PTY_KEYS.ctrlC);
        await pty.waitForScreen(
          (text) => (typeof closes === 'string' ? !text.includes(closes) : !closes.test(text)),
          `${state.name} cancelled by Ctrl+C`,
        );
        expect(pty.exitCode()).toBeUndefined();
      }
      await pty.press(PTY_KEYS.ctrlC);
      const after = await pty.waitForText('stty-done');
      expect(after).toMatch(/cli-exit=130\b/);
      expect(after).not.toContain('sh-saw-sigint');
      expectRestored(pty, sttyFlags(after));
      expect(after).not.toMatch(/\n\s+at /);
    });
  }
});
