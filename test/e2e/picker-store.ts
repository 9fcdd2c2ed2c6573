/**
 * The store the picker's real-terminal suites share, made afresh per test in a temp dir: the
 * app's store generator for the other projects, hand-made sessions with known titles in the
 * current folder, and the picker started on it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCwd } from '../../src/store/index.js';
import { writeStore } from '../../src/tools/generate/store.js';
import { SessionBuilder } from '../helpers/factory.js';
import type { PtySession } from '../helpers/pty.js';
import { makeHome, startApp, type TestHome, writeSession } from './harness.js';

/** Alt+A marks all shown (Ctrl+A is pi's line start); Ctrl+D deletes the marked sessions. */
export const MARK_ALL = '\u001ba';
export const CTRL = {
  d: '\u0004',
  o: '\u000f',
  r: '\u0012',
  s: '\u0013',
  u: '\u0015',
  z: '\u001a',
} as const;

export interface PickerStore {
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
export function pickerStore(): PickerStore {
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
export async function startPicker(
  store: PickerStore,
  args: string[] = [],
  size = { cols: 110, rows: 30 },
): Promise<PtySession> {
  const pty = startApp(store.home, args, size);
  await pty.waitForText(/pi sessions 5\/5 · this folder/);
  await pty.waitForText('keep this migration work');
  return pty;
}

export async function typeText(pty: PtySession, text: string): Promise<void> {
  await pty.press(...text.split(''));
}
