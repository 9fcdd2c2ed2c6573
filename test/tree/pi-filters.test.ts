/**
 * The tree's five filters against pi 1.6.0's own /tree (its TreeList, built per filter the way
 * interactive mode builds it from the `treeFilterMode` setting), file by file: the rows pi draws
 * are exactly ours less the rows ours adds on purpose (assistant turns without text and usage
 * entries in "all" and "labeled-only", retained messages, fork rows), in the same order; the
 * counter's "pi shows N" is pi's row count; the cursor starts on the same entry. Files whose
 * structure is broken (a duplicated id pi draws twice, a parent cycle pi never draws) and files
 * only one of the two opens are left out: they are a reading question, checked elsewhere.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { writeStore } from '../../src/tools/generate/store.js';
import {
  buildForest,
  buildIndex,
  FILTER_CYCLE,
  type FilterMode,
  layoutForest,
  piRowCount,
  rowsBeyondPi,
} from '../../src/tree/flatten.js';
import { FIXTURES, goldenCases } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { piTreeModule } from '../helpers/pi-tree.js';

const ID_FIELDS = new Set(['id', 'parentId', 'targetId', 'firstKeptEntryId', 'fromId']);
/** An entry without its ids: v1 files get new ids on every load, in both tools. */
function signature(entry: Record<string, unknown>): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
          )
        : value;
  const rest = Object.fromEntries(Object.entries(entry).filter(([k]) => !ID_FIELDS.has(k)));
  return createHash('sha1')
    .update(JSON.stringify(sorted(rest)))
    .digest('hex');
}

interface Side {
  rows: string[];
  count: number;
  cursor: string | undefined;
}

async function piSide(path: string, mode: FilterMode): Promise<Side | undefined> {
  const { TreeSelectorComponent } = await piTreeModule();
  let manager: Awaited<ReturnType<typeof openWithPi>>['manager'];
  try {
    manager = (await openWithPi(path)).manager;
  } catch {
    return undefined;
  }
  const list = new TreeSelectorComponent(
    (manager as unknown as { getTree(): unknown }).getTree(),
    manager.getLeafId(),
    80,
    () => {},
    () => {},
    undefined,
    undefined,
    mode,
  ).getTreeList();
  const rows = list.filteredNodes.map((f) => signature(f.node.entry));
  return { rows, count: rows.length, cursor: rows[list.selectedIndex] };
}

/** Ours as the tree screen draws it; `pi` is what the counter says pi shows, `rows` the rows pi also draws. */
function ourSide(path: string, mode: FilterMode): (Side & { pi: number; all: number }) | 'broken' | undefined {
  const read = readSessionSync(path);
  if (!read.ok) return undefined;
  const tree = buildTree(read);
  if (tree.problems.some((p) => p.kind === 'duplicate-id' || p.kind === 'cycle')) return 'broken';
  const index = buildIndex(tree);
  const forest = buildForest(index, mode);
  const layout = layoutForest(forest, new Set());
  const rows: string[] = [];
  for (let row = 0; row < layout.count; row++) {
    const n = layout.nums[row]!;
    const alone = rowsBeyondPi(index, [n]);
    if (alone.noTextTurns + alone.usage + alone.retained + alone.forks === 0) rows.push(signature(index.entries[n]!));
  }
  const host = forest.leafHost === -1 ? layout.count - 1 : layout.rowOf[forest.leafHost]!;
  const hostNode = layout.nums[host];
  return {
    rows,
    count: rows.length,
    pi: piRowCount(index, layout),
    all: layout.count,
    cursor: hostNode === undefined ? undefined : signature(index.entries[hostNode]!),
  };
}

async function compare(path: string): Promise<{ compared: boolean; beyond: number }> {
  let beyond = 0;
  for (const mode of FILTER_CYCLE) {
    const ours = ourSide(path, mode);
    const pi = await piSide(path, mode);
    if (ours === undefined || ours === 'broken' || pi === undefined) return { compared: false, beyond };
    expect(ours.rows, `${path} [${mode}]: the rows pi draws`).toEqual(pi.rows);
    expect(ours.pi, `${path} [${mode}]: the counter's "pi shows N"`).toBe(pi.count);
    // pi's cursor starts on the leaf or its nearest shown ancestor, and so does ours; when that is a
    // row pi does not draw (a labelled tool-call turn nearer the leaf), ours starts nearer.
    const oursOnPiRow = ours.cursor !== undefined && ours.rows.includes(ours.cursor);
    if (oursOnPiRow || ours.cursor === undefined)
      expect(ours.cursor, `${path} [${mode}]: the first cursor`).toBe(pi.cursor);
    beyond += ours.all - ours.pi;
  }
  return { compared: true, beyond };
}

describe("the tree's filters equal pi 1.6.0's /tree, less the rows ours adds on purpose", () => {
  it('on every file of the pi-written and generated corpora that both open and that is not broken', async () => {
    let compared = 0;
    let beyond = 0;
    for (const c of goldenCases()) {
      const result = await compare(c.sessionPath);
      if (result.compared) compared++;
      beyond += result.beyond;
    }
    // 35 pi-written files and the generated ones both open (not the malformed kinds).
    expect(compared).toBeGreaterThanOrEqual(50);
    // Usage entries and tool-call turns are in the corpora, so the note has something to say.
    expect(beyond).toBeGreaterThan(50);
  }, 120_000);

  it("on a store from the project's generator (every entry type it writes, legacy and broken files among them)", async () => {
    const store = writeStore(tempDir(), {
      projects: 3,
      sessions: 24,
      entries: 120,
      toolBytes: 200,
      seed: 5,
      legacy: true,
      broken: true,
    });
    let compared = 0;
    for (const file of store.files) if (file.path.endsWith('.jsonl') && (await compare(file.path)).compared) compared++;
    expect(compared).toBeGreaterThanOrEqual(24);
  }, 120_000);

  it('on the retained-tail fixtures (the retained rows are the difference)', async () => {
    const folder = join(FIXTURES, 'retained');
    const files = readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const name of files) expect((await compare(join(folder, name))).compared).toBe(true);
  }, 60_000);

  it('on assistant turns without text, whatever their stopReason, and system messages', async () => {
    const b = new SessionBuilder();
    b.user('start');
    const message = (stopReason: unknown, content: unknown) =>
      b.entry('message', {
        message: {
          role: 'assistant',
          content,
          ...(stopReason === undefined ? {} : { stopReason }),
          provider: 'p',
          model: 'm',
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0 } },
          timestamp: 1,
        },
      });
    // pi counts a missing, null or empty stopReason as an ordinary end: hidden unless the leaf.
    message(undefined, []);
    message(null, [{ type: 'thinking', thinking: 'hmm' }]);
    message('', '   ');
    message('stop', [{ type: 'toolCall', id: 'c1', name: 'read', arguments: {} }]);
    message('toolUse', []);
    // A truthy stopReason other than stop/toolUse is an error or abort: shown.
    message('error', []);
    message('aborted', []);
    message('length', []);
    message('stop', [{ type: 'text', text: 'an answer' }]);
    b.entry('message', { message: { role: 'system', content: 'a system note', timestamp: 2 } });
    const labelled = message('toolUse', []);
    b.label(labelled, 'kept');
    b.user('last');
    message(undefined, []);
    const path = b.writeTo(join(tempDir(), 'no-text-turns.jsonl'));
    expect((await compare(path)).compared).toBe(true);
    // The last turn, without text and without a stopReason, is the leaf: both tools draw it, and
    // the cursor starts on it.
    const ours = ourSide(path, 'default');
    if (ours === undefined || ours === 'broken') throw new Error('the session did not read');
    expect(ours.cursor).toBe(ours.rows.at(-1));
    expect(ours.rows).toHaveLength(ours.pi);
  }, 60_000);
});
