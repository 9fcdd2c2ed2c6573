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
import { type InkTestApp, renderInk } from '../helpers/ink.js';

let dir: string | undefined;
let app: InkTestApp | undefined;
afterEach(() => {
  app?.unmount();
  app = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('TreeScreen live updates', () => {
  test('an appended entry appears; a same-size rewrite in place reloads the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pi-sessions-tree-live-'));
    const path = join(dir, 's.jsonl');
    const builder = new SessionBuilder();
    builder.user('first question about apples');
    builder.assistant('an answer about apples');
    builder.writeTo(path);
    app = renderInk(
      <InputRouter>
        <TreeScreen
          path={path}
          onBack={() => undefined}
          onExit={() => undefined}
          now={() => Date.parse('2026-02-05T12:00:00Z')}
        />
      </InputRouter>,
      { columns: 100, rows: 20 },
    );
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
