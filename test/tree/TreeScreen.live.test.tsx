/**
 * The tree screen follows the file through the live watcher, on a real file: an append shows
 * its new entry; a rewrite in place (same size, other bytes) reloads the whole file.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import { SessionBuilder } from '../helpers/factory.js';
import { type InkTestApp, KEYS, renderInk } from '../helpers/ink.js';

let dir: string | undefined;
let app: InkTestApp | undefined;
afterEach(() => {
  app?.unmount();
  app = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The tree screen on a real file, with the real store and the live watcher. */
const mount = (path: string): InkTestApp =>
  renderInk(
    <InputRouter>
      <TreeScreen
        path={path}
        onBack={() => undefined}
        onExit={() => undefined}
        now={() => Date.parse('2026-02-05T12:00:00Z')}
      />
    </InputRouter>,
    { columns: 100, rows: 24 },
  );

describe('TreeScreen live updates', () => {
  test('an appended entry appears; a same-size rewrite in place reloads the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pi-sessions-tree-live-'));
    const path = join(dir, 's.jsonl');
    const builder = new SessionBuilder();
    builder.user('first question about apples');
    builder.assistant('an answer about apples');
    builder.writeTo(path);
    app = mount(path);
    await app.waitFor('an answer about apples');

    const more = new SessionBuilder();
    more.user('first question about apples');
    more.assistant('an answer about apples');
    more.user('a follow-up about pears');
    appendFileSync(path, `${more.lines.at(-1)!}\n`);
    await app.waitFor('a follow-up about pears', 10_000);

    // Same length, same inode, other bytes before the seam: only a full read can show it.
    writeFileSync(path, readFileSync(path, 'utf8').replace('apples', 'quince'));
    const frame = await app.waitFor('Reloaded: the session file was rewritten', 10_000);
    expect(frame).toContain('first question about quince');
    expect(frame).toContain('a follow-up about pears');
  });
});

describe('the live tree after a write equals a fresh open', () => {
  /** The frame's list rows: everything between the query line and the `(i/N)` counter. */
  const listRows = (frame: string): string[] => {
    const lines = frame.split('\n').map((line) => line.trimEnd());
    const start = lines.findIndex((line) => line.startsWith('Type to search'));
    const end = lines.findIndex((line) => /^\(\d+\/\d+\)/.test(line));
    return lines.slice(start + 1, end).filter((line) => line !== '');
  };

  test('"Resume from here with a summary": the summary is the leaf, drawn first under the branch point, as on reopening', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pi-sessions-tree-live-'));
    const path = join(dir, 's.jsonl');
    const builder = new SessionBuilder();
    builder.user('first question');
    builder.assistant('first answer');
    builder.user('second question');
    builder.assistant('second answer');
    builder.writeTo(path);
    app = mount(path);
    await app.waitFor('◆ assistant: second answer');
    await app.settle();
    await app.press(KEYS.up, KEYS.up);
    await app.waitFor('› • assistant: first answer');
    await app.press(KEYS.enter);
    await app.waitFor('Resume from here with a summary');
    await app.press(KEYS.down, KEYS.enter);
    await app.settle();
    await app.type('Tried the second question');
    await app.press(KEYS.enter);
    const live = await app.waitFor((f) => f.includes('[branch summary]') && f.includes('Leaf moved'), 10_000);
    await app.settle();
    const liveRows = listRows(app.lastFrame());
    expect(liveRows.join('\n')).toContain('◆ [branch summary]: Tried the second question');
    app.unmount();

    app = mount(path);
    await app.waitFor('[branch summary]');
    await app.settle();
    expect(liveRows.map((row) => row.replace(/^›/, ' '))).toEqual(
      listRows(app.lastFrame()).map((row) => row.replace(/^›/, ' ')),
    );
    expect(live).toContain('Leaf moved');
  });
});
