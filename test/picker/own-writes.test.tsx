/**
 * Our own writes are not pi writing: a session renamed with the CLI
 * a moment ago is not `◉ live` in the picker, and deleting it asks for Enter, not y; once pi (here:
 * a line appended as pi would) writes after us, it is live again.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { type PickerExit, PickerScreen } from '../../components/picker/PickerScreen.js';
import { createStoreSource } from '../../src/picker/session-source.js';
import { encodeCwd, resolveLocations } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { ctrl, KEYS, renderInk } from '../helpers/ink.js';

const CWD = '/home/test/project';
const dirs: string[] = [];
afterEach(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
});

function store(): { agent: string; file: string } {
  const agent = tempDir();
  dirs.push(agent);
  const b = new SessionBuilder({ cwd: CWD });
  b.user('how do I parse this?');
  b.assistant('with a parser');
  return {
    agent,
    file: b.writeTo(
      join(agent, 'sessions', encodeCwd(CWD), '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001.jsonl'),
    ),
  };
}

function mount(agent: string, cache: boolean) {
  const locations = resolveLocations({ cwd: CWD, env: { PI_CODING_AGENT_DIR: agent } });
  const onExit = vi.fn<(r: PickerExit) => void>();
  const app = renderInk(
    <InputRouter>
      <PickerScreen
        locations={locations}
        printMode={false}
        source={createStoreSource(locations, { cache })}
        now={() => Date.now()}
        home="/home/test"
        onExit={onExit}
        onOpenTree={vi.fn()}
        onOpenStats={vi.fn()}
        onOpenLabels={vi.fn()}
      />
    </InputRouter>,
    {
      columns: 120,
      rows: 20,
    },
  );
  return app;
}

describe('the picker tells our writes from pi writing', () => {
  it.each([
    { how: 'read from the files', cache: false },
    { how: 'through the session catalogue', cache: true },
  ])(
    'after a CLI rename: not live, and delete asks for Enter; after a later pi write: live, and delete asks for y ($how)',
    async ({ cache }) => {
      const { agent, file } = store();
      const renamed = runCli(['rename', file, 'Renamed by us'], { env: { PI_CODING_AGENT_DIR: agent } });
      expect(renamed.code, renamed.stderr).toBe(0);
      expect(renamed.stderr).toBe('');

      const ours = mount(agent, cache);
      let frame = await ours.waitFor('Renamed by us');
      expect(frame).not.toContain('◉ live');
      await ours.press(ctrl('d'));
      frame = await ours.waitFor('Delete this session?');
      expect(frame).toContain('Enter delete');
      expect(frame).not.toContain('y delete anyway');
      await ours.press(KEYS.escape);
      ours.unmount();

      // pi appends after our entry (a new message under the leaf): the file is no longer as we left it.
      appendFileSync(
        file,
        `${JSON.stringify({ type: 'message', id: 'feedbeef', parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: 'still here', timestamp: Date.now() } })}\n`,
      );
      const theirs = mount(agent, cache);
      // Through the catalogue the row is painted first as the first run saved it (not live), then
      // replaced once the file is found to have grown: wait for that row.
      frame = await theirs.waitFor('◉ live');
      expect(frame).toContain('Renamed by us');
      await theirs.press(ctrl('d'));
      frame = await theirs.waitFor('Delete this session?');
      expect(frame).toContain('y delete anyway');
      await theirs.press(KEYS.escape);
      theirs.unmount();
    },
  );
});
