/** Fork rows and the parent link in the tree screen (fake terminal), and the way back to a tree as it was. */
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { type LineageFinder, type TreeOpen, TreeScreen, type TreeSnapshot } from '../../components/tree/TreeScreen.js';
import { KEYS, renderInk } from '../helpers/ink.js';
import { piSample, storeOf } from './helpers.js';

function mount(lineage: LineageFinder, extra: { snapshot?: TreeSnapshot; focusId?: string } = {}) {
  const opened: [TreeOpen, TreeSnapshot][] = [];
  const asked: string[] = [];
  const finder: LineageFinder = async (path, session, tree) => {
    asked.push(path);
    return lineage(path, session, tree);
  };
  const app = renderInk(
    <InputRouter>
      <TreeScreen
        path="/tmp/test.jsonl"
        store={storeOf(piSample())}
        live={false}
        onBack={() => undefined}
        onExit={() => undefined}
        onOpenSession={(o, s) => opened.push([o, s])}
        findLineage={finder}
        {...extra}
      />
    </InputRouter>,
    { columns: 100, rows: 30 },
  );
  return { app, opened, asked };
}

const cursorLine = (frame: string): string => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

describe('forks in the tree screen', () => {
  test('a fork row appears under its fork point once found; Enter opens it with a snapshot that brings this tree back as it was', async () => {
    const { app, opened, asked } = mount(async () => ({
      forks: [{ path: '/s/fork.jsonl', title: 'Approach B, again', entryId: 'aB', added: 2 }],
      parent: undefined,
    }));
    const frame = await app.waitFor('⑂ fork: Approach B, again');
    expect(asked).toEqual(['/tmp/test.jsonl']);
    const lines = frame.split('\n');
    const at = lines.findIndex((l) => l.includes('⑂ fork: Approach B, again'));
    expect(lines[at - 1]).toContain('assistant: For approach B');
    await app.settle();
    // From the leaf (last rows) up to the fork row, one drawn move at a time.
    await app.press(KEYS.end);
    await app.settle();
    for (let i = 0; i < 30 && !cursorLine(app.lastFrame()).includes('⑂ fork'); i++) {
      const before = cursorLine(app.lastFrame());
      await app.press(KEYS.up);
      await app.waitFor((f) => cursorLine(f) !== before);
    }
    expect(cursorLine(app.lastFrame())).toContain('⑂ fork: Approach B, again');
    await app.press(KEYS.enter);
    await app.waitFor(() => opened.length === 1);
    const [open, snapshot] = opened[0]!;
    expect(open).toEqual({ path: '/s/fork.jsonl' });
    app.unmount();

    // Esc from the fork's tree: this tree comes back from the snapshot, cursor on the fork row, not reloaded.
    const back = mount(async () => ({ forks: [], parent: undefined }), { snapshot });
    const again = await back.app.waitFor('⑂ fork: Approach B, again');
    expect(cursorLine(again)).toContain('⑂ fork: Approach B, again');
    expect(back.asked).toEqual([]);
  });

  test('a fork says whose fork it is in the header; P opens the parent on the fork point', async () => {
    const { app, opened } = mount(async () => ({
      forks: [],
      parent: { path: '/s/parent.jsonl', title: 'The parent session', entryId: 'p42' },
    }));
    await app.waitFor('⑂ fork of The parent session (P opens it)');
    await app.settle();
    await app.write('P');
    await app.waitFor(() => opened.length === 1);
    expect(opened[0]![0]).toEqual({ path: '/s/parent.jsonl', focusId: 'p42' });
  });

  test('opened on an entry (a label, a parent link): the cursor is there', async () => {
    const { app } = mount(async () => ({ forks: [], parent: undefined }), { focusId: 'uB1' });
    const frame = await app.waitFor('B.1');
    expect(cursorLine(frame)).toContain('user: B.1');
  });
});
