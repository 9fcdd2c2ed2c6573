/**
 * Fork at a user message, as pi 1.6.0's /fork (AgentSessionRuntime.fork, position "before"): the
 * new session ends at the message's parent and the message's text comes back to be re-sent.
 * pi's own createBranchedSession on a copy is the oracle for the new file.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkSession, StoreError } from '../../src/store/index.js';
import { buildIndex } from '../../src/tree/flatten.js';
import { initTreeState, treeReducer } from '../../src/tree/reducer.js';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { piSample, treeOf } from '../tree/helpers.js';

// tempDir() folders are removed after the file by test/setup.ts.
const dir = (): string => tempDir();

/** user → assistant (labelled) → user with two text blocks → assistant. */
function conversation(): { path: string; second: string; first: string; labelled: string } {
  const b = new SessionBuilder();
  const first = b.user('first question');
  const labelled = b.assistant('first answer');
  b.entry('label', { targetId: labelled, label: 'good answer' });
  const second = b.user([
    { type: 'text', text: 'Now try ' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'text', text: 'approach B' },
  ]);
  b.assistant('second answer');
  return { path: b.writeTo(join(dir(), 'sessions', 's.jsonl')), second, first, labelled };
}

/** What pi sees of a session file: entries without the random ids of re-created labels, and the context. */
async function piView(
  path: string,
): Promise<{ entries: unknown[]; labels: (string | undefined)[]; context: unknown[] }> {
  const { manager } = await openWithPi(path);
  const entries = manager
    .getEntries()
    .map((e) => (e.type === 'label' ? { type: 'label' } : { type: e.type, id: e.id, parentId: e.parentId }));
  return {
    entries,
    labels: manager.getEntries().map((e) => manager.getLabel(e.id)),
    context: manager.buildSessionContext().messages,
  };
}

describe("fork before a user message (pi's /fork)", () => {
  it("ends at the message's parent, as pi's createBranchedSession(parent) writes it, and returns the text pi puts back in the editor", async () => {
    const { path, second, labelled } = conversation();
    const fork = await forkSession(path, second);
    // pi-ai's contentText(content, ""): text blocks joined with nothing between them.
    expect(fork.editorText).toBe('Now try approach B');

    const { manager } = await openWithPi(path);
    const piFork = (manager as unknown as { createBranchedSession(leafId: string): string }).createBranchedSession(
      labelled,
    );
    const ours = await piView(fork.path);
    expect(ours.entries).toEqual((await piView(piFork)).entries);
    expect(ours.labels).toEqual((await piView(piFork)).labels);
    expect(ours.context).toEqual((await piView(piFork)).context);
    expect(ours.entries.map((e) => (e as { id?: string }).id)).not.toContain(second);
    expect(fork.entries).toBe(3); // user, assistant, the label re-created
  });

  it('keeps /clone semantics without an entry id, and "at" on request: the user message is included', async () => {
    const b = new SessionBuilder();
    b.user('q');
    b.assistant('a');
    const last = b.user('unanswered');
    const path = b.writeTo(join(dir(), 'sessions', 's.jsonl'));
    const clone = await forkSession(path);
    expect(clone.editorText).toBeUndefined();
    expect((await piView(clone.path)).entries.map((e) => (e as { id: string }).id)).toContain(last);
    const at = await forkSession(path, last, { position: 'at' });
    expect((await openWithPi(at.path)).manager.getLeafId()).toBe(last);
    const before = await forkSession(path, last);
    expect((await openWithPi(before.path)).manager.getLeafId()).not.toBe(last);
    expect(before.editorText).toBe('unanswered');
  });

  it('refuses the first message (nothing before it) and "before" on an entry that is not a user message, writing nothing', async () => {
    const { path, first, labelled } = conversation();
    const folder = join(path, '..');
    const before = readdirSync(folder);
    await expect(forkSession(path, first)).rejects.toThrow(/is the first message: a fork before it would be empty/);
    await expect(forkSession(path, labelled, { position: 'before' })).rejects.toBeInstanceOf(StoreError);
    expect(readdirSync(folder)).toEqual(before);
  });

  it('the CLI prints the path on stdout and the text to re-send on stderr, or both in --json', async () => {
    const { path, second } = conversation();
    const plain = runCli(['fork', path, second]);
    expect(plain.code, plain.stderr).toBe(0);
    const forkPath = plain.stdout.trim();
    expect(plain.stdout).toBe(`${forkPath}\n`);
    expect(plain.stderr).toBe('Message to re-send: Now try approach B\n');
    expect((await openWithPi(forkPath)).manager.getBranch().map((e) => e.id)).not.toContain(second);
    const json = runCli(['fork', path, second, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as { path: string; editorText: string; entries: number };
    expect(parsed.editorText).toBe('Now try approach B');
    expect(parsed.entries).toBe(3);
    expect(json.stderr).toBe('');
    const first = runCli(['fork', path, conversation().first]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^pi-sessions: [^\n]*is the first message[^\n]*\n$/);
    expect(first.stdout).toBe('');
  });

  it("the tree screen's state keeps the text for the fork panel (the fork-done mode's editorText)", () => {
    const state = initTreeState({
      index: buildIndex(treeOf(piSample())),
      listHeight: 10,
      width: 80,
    });
    const forked = treeReducer(state, { type: 'forked', path: '/tmp/f.jsonl', editorText: 'again please' });
    expect(forked.mode.kind).toBe('forkDone');
    expect(forked.mode).toMatchObject({ path: '/tmp/f.jsonl', editorText: 'again please' });
    expect(treeReducer(state, { type: 'forked', path: '/tmp/f.jsonl' }).mode).toMatchObject({ editorText: null });
  });
});
