/**
 * The audit of a folder holding conflict copies, as the CLI (`checkStore`) and the picker's
 * check view (`checkScope`) run it: one warning on the original naming each copy and what it
 * adds; a copy holding another session's id is no conflict copy and gets none.
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScope, checkStore, type FileCheck, resolveLocations } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

const NAME = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';

function folder(): { dir: string; original: string; syncthing: string; dropbox: string; stranger: string } {
  const dir = tempDir();
  const b = new SessionBuilder({ cwd: dir });
  b.user('shared');
  b.assistant('answer');
  const original = b.writeTo(join(dir, `${NAME}.jsonl`));
  b.user('one more on the server');
  const syncthing = b.writeTo(join(dir, `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`));
  b.assistant('and its answer');
  const dropbox = b.writeTo(join(dir, `${NAME} (Ana's conflicted copy 2026-01-06).jsonl`));
  // Named like a conflict copy of the same original, but another session.
  const other = new SessionBuilder({ cwd: dir, id: '019b0000-0000-7000-8000-0000000000ff' });
  other.user('unrelated');
  const stranger = join(dir, `${NAME}.conflict-old.jsonl`);
  writeFileSync(stranger, other.text());
  return { dir, original, syncthing, dropbox, stranger };
}

const conflictWarnings = (files: FileCheck[]) =>
  files.flatMap((f) =>
    f.problems.filter((p) => p.kind === 'conflict-copy').map((p) => ({ path: f.path, message: p.message })),
  );

describe('check and conflict copies', () => {
  it('warns once, on the original, in the CLI audit and the check view alike', async () => {
    const { dir, original, syncthing, dropbox } = folder();
    const expected = [
      {
        path: original,
        message: `2 conflict copies of this session: ${basename(dropbox)} adds 2 entries (device Ana, 2026-01-06); ${basename(syncthing)} adds 1 entry (device 7QKMJ3X, 2026-01-05T13:00:00)`,
      },
    ];
    const locations = resolveLocations({ sessionDir: dir, cwd: dir, env: {} });
    expect(conflictWarnings(checkStore(locations, 'cwd').files)).toEqual(expected);
    expect(conflictWarnings((await checkScope(locations, 'cwd')).files)).toEqual(expected);
  });
});
