/**
 * The project's store generator (src/tools/generate): deterministic, realistic, and written so that
 * pi 1.6.0's own SessionManager opens every healthy file unchanged with the same tree, leaf,
 * labels and name as our reader.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryTimeMs } from '../../src/store/entry.js';
import { buildTree, listSessions, readSessionSync, resolveLocations } from '../../src/store/index.js';
import { planStore, writeStore } from '../../src/tools/generate/store.js';
import { tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

const OPTIONS = {
  projects: 3,
  sessions: 40,
  entries: 40,
  toolBytes: 300,
  seed: 5,
  forkShare: 0.2,
  legacy: true,
  broken: true,
};

interface PiNode {
  entry: { id: string };
  children: PiNode[];
}

/** parent id ('' for roots) → child ids, from pi's getTree(). */
function piChildren(nodes: PiNode[], parent = '', out = new Map<string, string[]>()): Map<string, string[]> {
  out.set(
    parent,
    nodes.map((n) => n.entry.id),
  );
  for (const node of nodes) piChildren(node.children, node.entry.id, out);
  return out;
}

describe('store generator', () => {
  const agent = tempDir();
  const root = join(agent, 'sessions');
  const store = writeStore(root, OPTIONS);
  const kinds = store.files.map((f) => f.kind);

  it('writes several projects of realistic sessions: forks, branches, labels, names, compactions, model and thinking changes', () => {
    expect(new Set(store.files.map((f) => basename(join(f.path, '..')))).size).toBe(3);
    expect(kinds.filter((k) => k === 'v3' || k === 'fork')).toHaveLength(40);
    expect(kinds).toContain('fork');
    expect(kinds.filter((k) => k === 'legacy-v1').length).toBeGreaterThanOrEqual(2);
    expect(kinds.filter((k) => k === 'legacy-v2').length).toBeGreaterThanOrEqual(2);
    expect(kinds.filter((k) => k.startsWith('broken:'))).toHaveLength(13);
    const text = store.files
      .filter((f) => f.kind === 'v3')
      .map((f) => readFileSync(f.path, 'utf8'))
      .join('');
    for (const type of [
      'branch_summary',
      'label',
      'session_info',
      'compaction',
      'model_change',
      'thinking_level_change',
      'toolCall',
      'toolResult',
    ])
      expect(text.includes(`"${type}"`), type).toBe(true);
    const branched = store.files.filter((f) => {
      const read = readSessionSync(f.path);
      return read.ok && f.kind === 'v3' && buildTree(read).children.size < read.entries.length - 1;
    });
    expect(branched.length).toBeGreaterThan(0);
  });

  it('is deterministic: the same options give the same bytes and times', () => {
    const again = [...planStore(root, OPTIONS)];
    expect(again.map((f) => join(root, f.relPath))).toEqual(store.files.map((f) => f.path));
    for (const file of again)
      expect(Buffer.from(file.content).equals(readFileSync(join(root, file.relPath))), file.relPath).toBe(true);
  });

  it('lists every healthy and legacy session without problems; forks point at their parent file', async () => {
    const { sessions } = await listSessions(
      resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agent } }),
      { scope: 'all' },
    );
    const healthy = store.files.filter((f) => f.kind === 'v3' || f.kind === 'fork' || f.kind.startsWith('legacy'));
    for (const file of healthy) {
      const info = sessions.find((s) => s.path === file.path);
      expect(info, file.path).toBeDefined();
      expect(info!.problems, file.path).toEqual([]);
    }
    for (const fork of store.files.filter((f) => f.kind === 'fork')) {
      const parent = sessions.find((s) => s.path === fork.path)!.parentSessionPath!;
      expect(store.files.map((f) => f.path)).toContain(parent);
      // Made the way pi's createBranchedSession makes it: after the entries it copies.
      const read = readSessionSync(fork.path);
      const parentRead = readSessionSync(parent);
      if (!read.ok || !parentRead.ok) throw new Error('unreadable fork or parent');
      const parentIds = new Set(parentRead.entries.map((e) => e.id));
      const copied = read.entries.filter((e) => parentIds.has(e.id) && e.type !== 'label');
      expect(copied.length).toBeGreaterThan(0);
      for (const entry of copied)
        expect(entryTimeMs(entry) < Date.parse(read.header['timestamp'] as string), fork.path).toBe(true);
    }
  });

  it('opens in pi 1.6.0 unchanged, with our tree, leaf, labels and name', async () => {
    for (const file of store.files.filter((f) => f.kind === 'v3' || f.kind === 'fork' || f.kind === 'legacy-v2')) {
      const read = readSessionSync(file.path);
      if (!read.ok) throw new Error(`${file.path}: ${read.message}`);
      const tree = buildTree(read);
      const pi = await openWithPi(file.path);
      if (file.kind !== 'legacy-v2') expect(pi.changedOnOpen, file.path).toBe(false);
      expect(pi.manager.getLeafId(), file.path).toBe(tree.leafId);
      expect(pi.manager.getSessionName() ?? null, file.path).toBe(tree.sessionName ?? null);
      const ours = new Map<string, string[]>([['', tree.roots.map((e) => e.id)]]);
      for (const [parent, kids] of tree.children)
        if (kids.length > 0)
          ours.set(
            parent,
            kids.map((e) => e.id),
          );
      const theirs = piChildren(pi.manager.getTree() as PiNode[]);
      for (const [parent, kids] of theirs) if (kids.length === 0) theirs.delete(parent);
      expect(ours, file.path).toEqual(theirs);
      for (const entry of read.entries)
        expect(tree.labels.get(entry.id), `${file.path} ${entry.id}`).toBe(pi.manager.getLabel(entry.id));
    }
  });
});
