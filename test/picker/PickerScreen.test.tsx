import { describe, expect, it, vi } from 'vitest';
import type { SessionSource } from '../../src/picker/session-source.js';
import type { TrashedSession } from '../../src/store/trash/trash.js';
import type { SessionInfo } from '../../src/store/types.js';
import { alt, ctrl, KEYS } from '../helpers/ink.js';
import { DAY, makeInfo, NOW } from './make-info.js';
import { listingSource, renderPicker } from './picker-screen-fixture.js';

function fakeSource(initial: SessionInfo[]) {
  let sessions = [...initial];
  const calls: string[] = [];
  const trashedLog: { info: SessionInfo; id: string }[] = [];
  // Each listing reads `sessions` anew, as a trash or an undo left it; `satisfies` keeps every method a
  // real source must have.
  const source = listingSource(() => sessions, {
    async rename(path, name) {
      calls.push(`rename ${path} ${name}`);
      return { name: name === '' ? undefined : name };
    },
    async trash(paths) {
      calls.push(`trash ${paths.join(',')}`);
      const trashed: TrashedSession[] = paths.map((path) => ({ path, how: 'trash', trashedPath: `/trash/${path}` }));
      const changeIds: string[] = [];
      for (const info of sessions.filter((s) => paths.includes(s.path))) {
        const id = `c000000${trashedLog.length}`;
        trashedLog.push({ info, id });
        changeIds.push(id);
      }
      sessions = sessions.filter((s) => !paths.includes(s.path));
      return { trashed, failed: [], changeIds };
    },
    // The journal as the fake keeps it: the latest trash is undone (and nothing else), at once when
    // the screen made it (its id is among its own), after a question otherwise.
    async undoStep(request) {
      const last = trashedLog.at(-1);
      if (!last) return { kind: 'nothing' };
      const record = {
        kind: 'delete',
        path: last.info.path,
        time: new Date(NOW - 2 * 86_400_000).toISOString(),
        id: last.id,
        how: 'trash',
        trashedPath: `/trash${last.info.path}`,
        infoPath: null,
      } as const;
      const undo = 'restore it from the trash';
      if ('look' in request && !request.own?.includes(last.id))
        return { kind: 'ask', entry: { record, batch: [record], undo, changedSince: false } };
      trashedLog.pop();
      calls.push(`undo ${last.info.path}`);
      sessions = [...sessions, last.info].sort((a, b) => b.modified.getTime() - a.modified.getTime());
      return { kind: 'done', outcome: { record, batch: [record], undo } };
    },
    async redoStep() {
      return { kind: 'nothing' };
    },
    async planSlim(path) {
      calls.push(`planSlim ${path}`);
      return {
        path,
        sizeBefore: 200_000,
        entries: 9,
        branchEntries: 5,
        estimatedAfter: 1500,
        parentSession: null,
        sessionId: 'x',
      };
    },
    async slim(path) {
      calls.push(`slim ${path}`);
      return {
        path,
        slimPath: `${path}.slim`,
        sizeBefore: 200_000,
        sizeAfter: 1600,
        entriesBefore: 9,
        entriesAfter: 6,
      };
    },
    async preview() {
      return {
        turns: [
          { role: 'user', text: 'how do I parse?' },
          { role: 'assistant', text: 'use a parser' },
        ],
      };
    },
  } satisfies Omit<SessionSource, 'list'>);
  return { source, calls, trashedLog, sessions: (): SessionInfo[] => sessions };
}

const sample = (n: number): SessionInfo[] =>
  Array.from({ length: n }, (_, i) =>
    makeInfo({
      path: `/s/${i}.jsonl`,
      ageMs: (i + 1) * DAY,
      firstMessage: `item ${i};`,
      allMessagesText: i === 4 ? 'we discussed the flux capacitor design' : `plain ${i}`,
      name: i === 2 ? 'Parser tests' : undefined,
    }),
  );

function mount(sessions: SessionInfo[], size: { columns: number; rows: number }, printMode = false) {
  const { source, calls, trashedLog, sessions: current } = fakeSource(sessions);
  return { ...renderPicker(source, { ...size, printMode }), calls, trashedLog, sessions: current };
}

describe.each([
  { columns: 100, rows: 30 },
  { columns: 40, rows: 12 },
])('PickerScreen at $columns×$rows', (size) => {
  it('fills rows-1 lines, shows header, rows and footer, and search narrows', async () => {
    const { app } = mount(sample(50), size);
    await app.waitFor('item 0;');
    let frame = app.lastFrame();
    expect(frame.split('\n')).toHaveLength(size.rows - 1);
    expect(frame).toContain('50/50');
    await app.type('flux');
    frame = await app.waitFor((f) => f.includes('1/50'));
    expect(frame).toContain('item 4;');
    expect(frame).not.toContain('item 0;');
  });

  it('renames inline and the row updates', async () => {
    const { app, calls } = mount(sample(5), size);
    await app.waitFor('item 0;');
    await app.press(ctrl('r'));
    await app.waitFor('Name:');
    await app.type('Fresh');
    await app.press(KEYS.enter);
    await app.waitFor('★ Fresh');
    await vi.waitFor(() => expect(calls).toContain('rename /s/0.jsonl Fresh'));
  });

  it('slims after a prompt with the sizes before and after', async () => {
    const { app, calls } = mount(sample(5), size);
    await app.waitFor('item 0;');
    await app.press(alt('s'));
    const prompt = await app.waitFor('Keep only the active branch of');
    expect(prompt).toContain('195 KB → about 1.5 KB');
    // The way back is whole on the line, however narrow: the undo key comes first.
    expect(prompt).toContain('Ctrl+Z undoes it:');
    expect(calls).toEqual(['planSlim /s/0.jsonl']);
    await app.press(KEYS.escape);
    await app.waitFor('Nothing was slimmed');
    await app.press(alt('s'));
    await app.waitFor('Keep only the active branch of');
    await app.press(KEYS.enter);
    await app.waitFor('Slimmed 195 KB → 1.6 KB');
    expect(calls).toEqual(['planSlim /s/0.jsonl', 'planSlim /s/0.jsonl', 'slim /s/0.jsonl']);
  });

  it('each prompt and question says its keys once: a prompt in the footer, a question on its own line', async () => {
    const { app } = mount(sample(5), { columns: 80, rows: 24 });
    await app.waitFor('item 0;');
    const count = (frame: string, text: string): number => frame.split(text).length - 1;
    await app.press(ctrl('r'));
    const rename = await app.waitFor('Rename “');
    expect(count(rename, 'cancel')).toBe(1);
    expect(rename.trimEnd().split('\n').at(-1)).toMatch(/Enter save\s+Esc cancel/);
    expect(rename).toContain('(empty clears the name)');
    await app.press(KEYS.escape);
    await app.waitFor((f) => !f.includes('Rename “'));
    await app.press(ctrl('d'));
    const remove = await app.waitFor('Delete this session?');
    expect(count(remove, 'cancel')).toBe(1);
    expect(remove).toMatch(/Enter delete · Esc cancel/);
  });

  it('at 80 columns the slim prompt shows its undo key and what slim does, uncut', async () => {
    const { app } = mount(sample(5), { columns: 80, rows: 24 });
    await app.waitFor('item 0;');
    await app.press(alt('s'));
    const prompt = await app.waitFor('Keep only the active branch of');
    expect(prompt).toContain('Ctrl+Z undoes it: the branch goes to a new session, the original to the trash.');
  });

  it('deletes after confirmation and undo brings the row back', async () => {
    const { app, calls } = mount(sample(5), size);
    await app.waitFor('item 0;');
    await app.press(ctrl('d'));
    await app.waitFor('Delete this session?');
    await app.press(KEYS.enter);
    await app.waitFor((f) => !f.includes('item 0;') && f.includes('4/4'));
    await vi.waitFor(() => expect(calls).toContain('trash /s/0.jsonl'));
    // Made in this screen a moment ago: undone without a question.
    await app.press(ctrl('z'));
    await app.waitFor((f) => f.includes('item 0;') && f.includes('5/5'));
    await app.waitFor('Undid the delete');
    expect(calls).toContain('undo /s/0.jsonl');
  });
});

describe('PickerScreen', () => {
  it('a delete this screen did not make is asked about first: what, which session, when', async () => {
    const { app, calls, trashedLog, sessions } = mount(sample(5), { columns: 100, rows: 30 });
    await app.waitFor('item 0;');
    // The journal holds a delete from an earlier run.
    trashedLog.push({ info: { ...sessions()[0]!, path: '/s/gone.jsonl' }, id: 'e0000001' });
    await app.press(ctrl('z'));
    await app.waitFor('Undo this change?');
    await app.waitFor('The delete of gone.jsonl (2 days ago): restore it from the trash.');
    expect(calls).not.toContain('undo /s/gone.jsonl');
    await app.press('n');
    await app.waitFor('Nothing was undone');
    await app.press(ctrl('z'));
    await app.waitFor('Undo this change?');
    await app.press('y');
    await app.waitFor('Undid the delete of gone.jsonl');
    expect(calls).toContain('undo /s/gone.jsonl');
  });
  it('footer: the position (i/N) when the list overflows, → tree, Enter resume first and ? more last at 80 columns; → tree at every width', async () => {
    const { app } = mount(sample(50), { columns: 80, rows: 24 });
    await app.waitFor('item 0;');
    await app.press(KEYS.down, KEYS.down);
    const frame = await app.waitFor('(3/50)');
    const footer = frame.split('\n').at(-1) ?? '';
    expect(footer).toMatch(/^\(3\/50\) {2}→ tree {2}Enter resume {2}.*\? more$/);
    // No column kept for the live marker when nothing is live; titles get the width.
    expect(frame).not.toContain('live');
    for (const columns of [60, 40, 24, 12]) {
      app.resize(columns, 24);
      const narrow = await app.waitFor(
        (f) =>
          (f.split('\n').at(-1) ?? '').length <= columns &&
          f.split('\n').every((l) => l.length <= columns) &&
          /→ tree/.test(f.split('\n').at(-1) ?? ''),
      );
      expect(narrow.split('\n').at(-1)).toContain('→ tree');
    }
  });

  it('re-lays out on resize', async () => {
    const { app } = mount(sample(50), { columns: 100, rows: 30 });
    await app.waitFor('item 0;');
    app.resize(50, 10);
    const frame = await app.waitFor((f) => f.split('\n').length === 9);
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
  });

  it('renders only the visible rows of 5,000 sessions', async () => {
    const { app } = mount(sample(5000), { columns: 100, rows: 30 });
    const frame = await app.waitFor('5000/5000');
    expect(frame.split('\n').filter((l) => /item \d+;|Parser tests/.test(l))).toHaveLength(26);
    await app.press(KEYS.ctrlEnd);
    await app.waitFor('item 4999;');
  });

  it('shows the preview with the last messages and absolute dates', async () => {
    const { app } = mount(sample(3), { columns: 120, rows: 30 });
    await app.waitFor('item 0;');
    await app.press(ctrl('o'));
    const frame = await app.waitFor('use a parser');
    expect(frame).toMatch(/Modified\s+\d{4}-\d{2}-\d{2}/);
  });

  it('says where it looked when there are no sessions, and shows invalid queries', async () => {
    const { app } = mount([], { columns: 100, rows: 20 });
    await app.waitFor('No sessions for this folder (looked in /home/u/.pi/agent/sessions/--home-u-proj--)');
    await app.type('"open');
    await app.waitFor('unclosed quote');
  });

  it('at 80 columns the no-sessions message wraps and keeps its advice (which key shows more)', async () => {
    const { app } = mount([], { columns: 80, rows: 20 });
    const frame = await app.waitFor('all projects');
    const lines = frame.split('\n');
    const at = lines.findIndex((line) => line.includes('No sessions for this folder'));
    expect(at).toBeGreaterThan(-1);
    // The message and its advice, over the lines it takes, none cut.
    const message = lines
      .slice(at, at + 3)
      .map((line) => line.trim())
      .join(' ');
    expect(message).toMatch(
      /looked in \/home\/u\/.*--home-u-proj--\)\..*Press Tab for sub-folders and then all projects/,
    );
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(frame).not.toContain('…/sessi…');
  });

  it('--print: Enter exits with the path', async () => {
    const { app, onExit } = mount(sample(3), { columns: 80, rows: 20 }, true);
    await app.waitFor('item 0;');
    await app.press(KEYS.down, KEYS.enter);
    await vi.waitFor(() => expect(onExit).toHaveBeenCalledWith({ kind: 'print', path: '/s/1.jsonl' }));
  });

  it('keys in one read act in order: a word, three Backspaces, then Ctrl+Space, Insert and Ctrl+R', async () => {
    const { app } = mount(sample(8), { columns: 100, rows: 30 });
    await app.waitFor('item 0;');
    await app.write('Parser testsxyz\u007f\u007f\u007f');
    await app.waitFor((f) => f.includes('> Parser tests') && f.includes('1/8'));
    // Clear, down to the second row, mark two rows, then rename the fourth: all in one chunk.
    await app.write(`${ctrl('u')}${KEYS.down}${KEYS.ctrlSpace}${KEYS.insert}${ctrl('r')}`);
    const frame = await app.waitFor('Rename “item 3;”');
    expect(frame).toContain('● 2 marked');
  });

  it('Ctrl+L opens the labels view over the scope’s sessions (whatever the search shows), with the picker’s state', async () => {
    const { app, onOpenLabels } = mount(sample(8), { columns: 100, rows: 30 });
    await app.waitFor('item 0;');
    await app.write('flux');
    await app.waitFor('1/8');
    await app.write(ctrl('l'));
    await app.waitFor(() => onOpenLabels.mock.calls.length === 1);
    const [sessions, state] = onOpenLabels.mock.calls[0]!;
    expect((sessions as { path: string }[]).length).toBe(8);
    expect((state as { query: { value: string } }).query.value).toBe('flux');
  });

  it('a bracketed paste is typed into the search, Enter and all, and opens nothing', async () => {
    const { app, onOpenTree } = mount(sample(8), { columns: 100, rows: 30 });
    await app.waitFor('item 0;');
    await app.write('\u001b[200~flux\rcapacitor\u001b[201~');
    await app.waitFor('> flux capacitor');
    await app.settle();
    expect(onOpenTree).not.toHaveBeenCalled();
  });
});

describe('PickerScreen: echo before results', () => {
  // 100 sessions: past the size from which a typed key is drawn before its search runs.
  it('draws the typed text first, with no count for the rows of the query before, then the results', async () => {
    const { app } = mount(sample(100), { columns: 100, rows: 20 });
    await app.waitFor('100/100');
    const from = app.frames.length;
    await app.write('flux');
    const done = await app.waitFor((f) => f.includes('> flux') && f.includes('pi sessions 1/100'));
    expect(done).toContain('flux capacitor');
    const after = app.frames.slice(from);
    const echo = after.findIndex((f) => f.includes('> flux'));
    // The echo: the query line changed, the rows are still those shown before, counted as "…".
    expect(after[echo]).toContain('…/100');
    expect(after[echo]).toContain('item 0;');
    // Nor does the footer place the cursor among them (it does once the results are in).
    expect(after[echo]).not.toContain('(1/100)');
    expect(done).toContain('pi sessions 1/100');
    // No frame shows the typed query over a count that is not its own.
    for (const frame of after.filter((f) => f.includes('> flux'))) expect(frame).toMatch(/pi sessions (…|1)\/100/);
  });

  it('Enter in the same read as the text acts on the typed query’s best match', async () => {
    const { app, onExit } = mount(sample(100), { columns: 100, rows: 20 }, true);
    await app.waitFor('100/100');
    await app.write('flux\r');
    await vi.waitFor(() => expect(onExit).toHaveBeenCalledWith({ kind: 'print', path: '/s/4.jsonl' }));
  });
});
