/** The label rows of a fork made by real pi: the labels it copied say where from; its own do not. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkNote, type LabelRow, labelRowsOf } from '../../src/labels/rows.js';
import { summarizeFileSync } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { piModule } from '../helpers/pi.js';

function rows(path: string): LabelRow[] {
  const info = summarizeFileSync(path);
  if ('ok' in info) throw new Error(info.message);
  const got = labelRowsOf(info);
  if ('problem' in got) throw new Error(got.problem);
  return got;
}

describe('label rows', () => {
  it('a pi fork’s copies of its parent’s labels carry copiedFrom; a label set in the fork afterwards does not', async () => {
    const dir = join(tempDir(), 'sessions');
    mkdirSync(dir);
    const parent = new SessionBuilder({ cwd: dir });
    parent.user('ok, now also handle the edge cases');
    const answer = parent.assistant('done');
    parent.label(answer, 'works');
    const parentPath = parent.writeTo(join(dir, 'parent.jsonl'));
    const { SessionManager } = await piModule();
    const pi = SessionManager.open(parentPath, dir, '/');
    const forkPath = pi.createBranchedSession(answer)!;
    pi.appendLabelChange(answer, undefined);
    const user = pi.getEntries().find((e) => e.type === 'message')!;
    pi.appendLabelChange(user.id, 'fork-only');

    const parentRows = rows(parentPath);
    expect(parentRows.map((r) => [r.label, r.copiedFrom])).toEqual([['works', null]]);
    // The copy was cleared in the fork: it is gone there; the label set there is the fork's own.
    expect(rows(forkPath).map((r) => [r.label, r.copiedFrom])).toEqual([['fork-only', null]]);

    const second = SessionManager.open(parentPath, dir, '/').createBranchedSession(answer)!;
    const copied = rows(second);
    expect(copied.map((r) => [r.label, r.entryId, r.copiedFrom])).toEqual([['works', answer, parentPath]]);
    expect(forkNote(copied[0]!, [...parentRows, ...copied])).toBe('in fork of ok, now also handle the edge cases');
    expect(forkNote(copied[0]!, copied)).toBe('in fork of parent.jsonl');
    expect(forkNote(parentRows[0]!, parentRows)).toBeUndefined();
  });
});
