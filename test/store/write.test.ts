/**
 * Every write, applied to copies of the corpus, checked two ways: our own reload (every original
 * byte is still there, the change is visible) and the real pi 1.6.0 SessionManager (it loads the
 * file without changing it and computes the leaf, name, labels and context we intended).
 */
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendPlanned,
  branchInPlace,
  buildContext,
  buildTree,
  forkSession,
  getBranch,
  type LoadedSession,
  messageOf,
  readSessionSync,
  renameSession,
  StoreError,
  setLabel,
} from '../../src/store/index.js';
import { FIXTURES, goldenCases } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';

function load(path: string): LoadedSession {
  const result = readSessionSync(path);
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Copies a corpus file into a fresh folder laid out like a sessions dir. */
function copyOf(path: string): string {
  const dir = join(tempDir(), basename(dirname(path)));
  mkdirSync(dir, { recursive: true });
  const target = join(dir, basename(path));
  copyFileSync(path, target);
  return target;
}

const writable = goldenCases().filter(
  (c) => c.corpus === 'pi-written' && !c.golden.error && !c.golden.generatedHeader && c.golden.entries.length > 0,
);

function expectPrefix(before: Buffer, after: Buffer): void {
  expect(after.length).toBeGreaterThan(before.length);
  expect(after.subarray(0, before.length).equals(before)).toBe(true);
}

describe('writes on every pi-written corpus file, verified by pi 1.6.0', () => {
  it('has files to write to', () => expect(writable.length).toBeGreaterThan(25));

  for (const c of writable) {
    const migrates = (c.golden.diskVersion ?? 3) < 3;
    it(`rename, label, branch and fork: ${c.folder}/${c.file}`, async () => {
      const path = copyOf(c.sessionPath);
      const original = readFileSync(path);
      const before = load(path);
      const beforeTree = buildTree(before);

      // Rename: pi sees the new name; the leaf moves to our entry; context is unchanged.
      const renamed = await renameSession(path, 'Renamed\nby  test ');
      expect(renamed.name).toBe('Renamed by  test');
      const afterRename = readFileSync(path);
      if (!migrates) expectPrefix(original, afterRename);
      let pi = await openWithPi(path);
      expect(pi.changedOnOpen).toBe(false);
      expect(pi.manager.getSessionName()).toBe('Renamed by  test');
      expect(pi.manager.getLeafId()).toBe(renamed.entryId);
      const reloaded = load(path);
      expect(reloaded.entries.length).toBe(before.entries.length + 1);
      expect(reloaded.entries.slice(0, -1).map((e) => e.id)).toEqual(before.entries.map((e) => e.id));
      expect(buildContext(buildTree(reloaded)).messages).toEqual(buildContext(beforeTree).messages);

      // Label the first entry, then clear it again.
      const target = before.entries[0]!.id;
      await setLabel(path, target, 'checkpoint');
      pi = await openWithPi(path);
      expect(pi.manager.getLabel(target)).toBe('checkpoint');
      await setLabel(path, target);
      pi = await openWithPi(path);
      expect(pi.manager.getLabel(target)).toBeUndefined();

      // Branch in place to the middle of the active path: pi's leaf and context are the target's.
      const path0 = getBranch(beforeTree, beforeTree.leafId);
      const middle = path0[Math.floor(path0.length / 2)]!;
      const branched = await branchInPlace(path, middle.id);
      pi = await openWithPi(path);
      expect(pi.changedOnOpen).toBe(false);
      const expectedLeaf =
        messageOf(middle)?.['role'] === 'user' || middle.type === 'custom_message' ? middle.parentId : middle.id;
      expect(branched.leafId).toBe(expectedLeaf);
      expect(pi.manager.getLeafId()).toBe(branched.entryId);
      expect(pi.manager.buildSessionContext().messages).toEqual(await piContextAt(pi.manager, expectedLeaf));

      // With a summary: pi's context is the target's plus the branch summary.
      const withSummary = await branchInPlace(path, middle.id, { summary: 'Tried another approach' });
      pi = await openWithPi(path);
      const messages = pi.manager.buildSessionContext().messages;
      expect(messages.slice(0, -1)).toEqual(await piContextAt(pi.manager, expectedLeaf));
      expect(messages.at(-1)).toMatchObject({ role: 'branchSummary', summary: 'Tried another approach' });
      expect(pi.manager.getLeafId()).toBe(withSummary.entryId);

      // Every original entry is still in the file, in order.
      const final = load(path);
      expect(final.entries.slice(0, before.entries.length).map((e) => e.id)).toEqual(before.entries.map((e) => e.id));

      // Fork at the original leaf (/clone: "at", even when it is a user message): a new v3 file that pi loads with the same context and labels.
      if (!before.entries.some((e) => ['user', 'assistant'].includes(messageOf(e)?.['role'] as string))) return;
      const fork = await forkSession(path, beforeTree.leafId!, { position: 'at' });
      expect(dirname(fork.path)).toBe(dirname(path));
      expect(basename(fork.path)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
      const forkPi = await openWithPi(fork.path);
      expect(forkPi.changedOnOpen).toBe(false);
      expect(forkPi.manager.getHeader()).toMatchObject({ version: 3, parentSession: path });
      expect(forkPi.manager.buildSessionContext().messages).toEqual(
        await piContextAt((await openWithPi(c.sessionPath)).manager, beforeTree.leafId),
      );
      for (const [id, label] of beforeTree.labels) {
        if (getBranch(beforeTree, beforeTree.leafId).some((e) => e.id === id))
          expect(forkPi.manager.getLabel(id)).toBe(label);
      }
    });
  }
});

describe('write safety', () => {
  it('adds the missing newline before appending, keeping the last line intact', async () => {
    const b = new SessionBuilder();
    b.user('hi');
    b.assistant('hello');
    const path = b.writeTo(join(tempDir(), 'a.jsonl'), false);
    const original = readFileSync(path);
    await renameSession(path, 'named');
    const after = readFileSync(path);
    expect(after.subarray(0, original.length).equals(original)).toBe(true);
    expect(after[original.length]).toBe(0x0a);
    expect((await openWithPi(path)).manager.getSessionName()).toBe('named');
  });

  it('hangs our entry under the real last line when pi appends while we plan', async () => {
    const b = new SessionBuilder();
    b.user('hi');
    const path = b.writeTo(join(tempDir(), 'race.jsonl'));
    let calls = 0;
    const piLine = JSON.stringify({
      type: 'message',
      id: 'pi000001',
      parentId: b.leaf,
      timestamp: '2026-01-05T10:00:00.000Z',
      message: { role: 'assistant', content: [], timestamp: 1 },
    });
    const result = await appendPlanned(path, (view) => {
      calls++;
      if (calls === 1) appendFileSync(path, `${piLine}\n`); // pi writes between our read and our append
      return [
        {
          type: 'label',
          id: `ours000${calls}`,
          parentId: view.leafId,
          timestamp: '2026-01-05T10:00:01.000Z',
          targetId: view.leafId,
        },
      ];
    });
    expect(calls).toBe(2);
    const s = load(path);
    expect(s.entries.map((e) => e.id)).toEqual([b.leaf, 'pi000001', 'ours0002']);
    expect(s.entries.at(-1)!.parentId).toBe('pi000001');
    expect(result.entryIds).toEqual(['ours0002']);
  });

  it('refuses to write to a file that is not a session, leaving it untouched', async () => {
    const dir = tempDir();
    const cases = {
      'notes.jsonl': 'just some text\n',
      'entries.jsonl': '{"type":"message","id":"a","parentId":null}\n',
      'empty.jsonl': '',
    };
    for (const [name, text] of Object.entries(cases)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      await expect(renameSession(path, 'x')).rejects.toThrow(StoreError);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
    await expect(renameSession(join(dir, 'missing.jsonl'), 'x')).rejects.toThrow(/no such session/);
  });

  it('refuses to label an entry that does not exist', async () => {
    const b = new SessionBuilder();
    b.user('hi');
    const path = b.writeTo(join(tempDir(), 'a.jsonl'));
    await expect(setLabel(path, 'nope', 'x')).rejects.toThrow(/no entry nope/);
  });

  it('fails clearly when the file cannot be written', async () => {
    const b = new SessionBuilder();
    b.user('hi');
    const path = b.writeTo(join(tempDir(), 'a.jsonl'));
    // A directory where the file should be makes open-for-append fail even for root.
    const dirPath = join(tempDir(), 'dir.jsonl');
    mkdirSync(dirPath);
    await expect(renameSession(dirPath, 'x')).rejects.toThrow(StoreError);
    chmodSync(path, 0o444);
    // (root ignores file modes; the call either succeeds or fails with a StoreError, never a raw error)
    try {
      await renameSession(path, 'x');
    } catch (error) {
      expect(error).toBeInstanceOf(StoreError);
    }
  });

  it('migrates a v1 file atomically before appending, keeping lines pi would drop, with the ids we showed', async () => {
    const v1 = join(FIXTURES, 'pi-written', 'sessions');
    const file = readdirSync(join(v1, '--home-dev-code-webshop--')).find((n) => n.startsWith('2025-11-12'))!;
    const path = copyOf(join(v1, '--home-dev-code-webshop--', file));
    appendFileSync(path, 'this line is not json\n');
    const shown = load(path);
    expect(shown.diskVersion).toBe(1);
    await renameSession(path, 'migrated');
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('this line is not json\n');
    const after = load(path);
    expect(after.diskVersion).toBe(3);
    expect(after.entries.slice(0, shown.entries.length).map((e) => e.id)).toEqual(shown.entries.map((e) => e.id));
    const pi = await openWithPi(path);
    expect(pi.changedOnOpen).toBe(false);
    expect(
      pi.manager
        .getEntries()
        .map((e) => e.id)
        .slice(0, shown.entries.length),
    ).toEqual(shown.entries.map((e) => e.id));
    expect(pi.manager.getSessionName()).toBe('migrated');
    expect(readdirSync(dirname(path)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('branches to the first user message as a fresh root that pi resumes with an empty context', async () => {
    const b = new SessionBuilder();
    const first = b.user('first prompt');
    b.assistant('answer');
    const path = b.writeTo(join(tempDir(), 'a.jsonl'));
    const result = await branchInPlace(path, first);
    expect(result).toMatchObject({ leafId: null, editorText: 'first prompt' });
    const pi = await openWithPi(path);
    expect(pi.manager.buildSessionContext().messages).toEqual([]);
    expect(pi.manager.getLeafId()).toBe(result.entryId);
  });

  it('forks with labels re-created at the end (original timestamps) and firstKeptEntryId remapped', async () => {
    const b = new SessionBuilder();
    const u1 = b.user('one');
    b.assistant('two');
    const lab = b.label(u1, 'start');
    const u2 = b.user('three');
    b.assistant('four');
    const comp = b.compaction('summary', lab);
    b.user('five');
    const leaf = b.assistant('six');
    const path = b.writeTo(join(tempDir(), 'p', 'src.jsonl'));
    const labelTs = buildTree(load(path)).labelTimestamps.get(u1);
    const fork = await forkSession(path, leaf);
    const forked = load(fork.path);
    expect(forked.entries.some((e) => e.id === lab)).toBe(false);
    const compaction = forked.entries.find((e) => e.id === comp)!;
    expect(compaction['firstKeptEntryId']).toBe(u2);
    const lastLabel = forked.entries.at(-1)!;
    expect(lastLabel).toMatchObject({ type: 'label', targetId: u1, label: 'start', timestamp: labelTs });
    for (let i = 1; i < forked.entries.length; i++) expect(forked.entries[i]!.parentId).toBe(forked.entries[i - 1]!.id);
    const pi = await openWithPi(fork.path);
    expect(pi.manager.getLabel(u1)).toBe('start');
    expect(pi.manager.getTree()[0]!.labelTimestamp).toBe(labelTs);
  });
});
