/**
 * Resume from here (branchInPlace) restates the target's label so pi resumes on it: the restated
 * label keeps the label's original time (pi 1.6.0 shows a label's time as its latest label
 * entry's timestamp, as its own createBranchedSession writes them), and the header's branch
 * count does not count the bookkeeping entries such a leaf move writes.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  branchInPlace,
  branchPointCount,
  buildTree,
  readSessionSync,
  type SessionTree,
} from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

const dir = tempDir('resume-bookkeeping-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function treeAt(path: string): SessionTree {
  const result = readSessionSync(path);
  if (!result.ok) throw new Error(result.message);
  return buildTree(result);
}

/** u1 → a1 → u2 → a2, then `[best approach]` on a1 (labelling appends under the leaf). */
function labelled(name: string): { path: string; a1: string; u1: string; labelTime: string } {
  const b = new SessionBuilder();
  const u1 = b.user('first prompt');
  const a1 = b.assistant('first answer');
  b.user('second prompt');
  b.assistant('second answer');
  b.label(a1, 'best approach');
  const path = b.writeTo(join(dir, `${name}.jsonl`));
  const labelTime = treeAt(path).labelTimestamps.get(a1)!;
  return { path, a1, u1, labelTime };
}

describe('resume from here on a labelled entry', () => {
  test('the restated label keeps its original time, for us and for pi 1.6.0', async () => {
    const { path, a1, labelTime } = labelled('keeps-time');
    expect(labelTime).toBeDefined();
    const result = await branchInPlace(path, a1);
    const tree = treeAt(path);
    expect(tree.leafId).toBe(result.entryId);
    expect(tree.labels.get(a1)).toBe('best approach');
    expect(tree.labelTimestamps.get(a1)).toBe(labelTime);
    const pi = (await openWithPi(path)).manager;
    expect(pi.getLeafId()).toBe(result.entryId);
    expect(pi.getLabel(a1)).toBe('best approach');
    const find = (nodes: ReturnType<typeof pi.getTree>): { label?: string; labelTimestamp?: string } | undefined => {
      for (const node of nodes) {
        if (node.entry.id === a1) return node;
        const below = find(node.children as ReturnType<typeof pi.getTree>);
        if (below) return below;
      }
      return undefined;
    };
    expect(find(pi.getTree())?.labelTimestamp).toBe(labelTime);
    // pi resumes on the target: its branch ends at a1 (then our label entry).
    expect(
      pi
        .getBranch()
        .map((e) => e.id)
        .slice(0, -1)
        .at(-1),
    ).toBe(a1);
  });

  test('the leaf move is not a branch; a real second branch is', async () => {
    const { path, a1, u1 } = labelled('branches');
    expect(branchPointCount(treeAt(path), { ignoreBookkeeping: true })).toBe(0);
    await branchInPlace(path, a1);
    // a1 now has the old continuation and our label entry: two children, one branch.
    expect(branchPointCount(treeAt(path))).toBe(1);
    expect(branchPointCount(treeAt(path), { ignoreBookkeeping: true })).toBe(0);
    // Resuming again on the same entry, and at the first prompt (an empty branch_summary root).
    await branchInPlace(path, a1);
    await branchInPlace(path, u1);
    expect(branchPointCount(treeAt(path), { ignoreBookkeeping: true })).toBe(0);
    // A summary is conversation: resuming with one makes a branch.
    await branchInPlace(path, a1, { summary: 'Tried the second prompt; went back' });
    expect(branchPointCount(treeAt(path), { ignoreBookkeeping: true })).toBe(1);
  });
});
