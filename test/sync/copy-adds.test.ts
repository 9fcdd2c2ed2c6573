/**
 * What each file of a conflict group adds, as the picker's preview shows it: the entries only that
 * file holds (counted; the first lines of their text), the device from a Syncthing name, and the
 * merge's own refusal when two files disagree about an entry with the same id.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeConflictAdds, findConflictGroups } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

const NAME = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';

function groupOf(dir: string) {
  const paths = [join(dir, `${NAME}.jsonl`), join(dir, `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`)];
  const [group] = findConflictGroups(paths);
  if (!group) throw new Error('no group');
  return group;
}

describe('describeConflictAdds', () => {
  it('counts what each file alone holds and shows the first lines of its text', async () => {
    const dir = tempDir();
    const b = new SessionBuilder({ cwd: dir });
    b.user('shared start');
    const shared = b.assistant('shared answer');
    const prefix = [...b.lines];
    b.user('laptop: add a README\nsecond line not shown');
    b.assistant('README added');
    b.writeTo(join(dir, `${NAME}.jsonl`));
    const laptopEnd = b.lines.length;
    // The server's own turns, branching from the shared answer.
    b.branchFrom(shared);
    b.user('server: run the tests');
    b.toolResult('bash', 'ok');
    b.assistant('all green');
    const copy = [...prefix, ...b.lines.slice(laptopEnd)];
    writeFileSync(join(dir, `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`), `${copy.join('\n')}\n`);

    const adds = await describeConflictAdds(groupOf(dir));
    expect(adds.refused).toBeUndefined();
    expect(adds.files.map((f) => ({ own: f.own, lines: f.lines, device: f.copy?.device }))).toEqual([
      { own: 2, lines: ['you › laptop: add a README', 'pi › README added'], device: undefined },
      { own: 3, lines: ['you › server: run the tests', 'pi › all green'], device: '7QKMJ3X' },
    ]);
  });

  it('says plainly when the copies disagree about an entry with the same id (the merge is refused)', async () => {
    const dir = tempDir();
    const b = new SessionBuilder({ cwd: dir });
    const first = b.user('the same id');
    const original = b.writeTo(join(dir, `${NAME}.jsonl`));
    const text = readFileSync(original, 'utf8');
    writeFileSync(
      join(dir, `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`),
      text.replace('the same id', 'changed on the server'),
    );
    const adds = await describeConflictAdds(groupOf(dir));
    expect(adds.refused).toMatch(new RegExp(`hold different entries with the same id ${first}; nothing was merged`));
    expect(adds.files.map((f) => f.own)).toEqual([0, 0]);
  });
});
