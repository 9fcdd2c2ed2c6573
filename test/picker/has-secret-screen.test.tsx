/**
 * `has:secret` on the picker screen (fake terminal, fake source): the header says the scan is
 * running and how far it is, the rows are the sessions with findings once it answers, and the
 * scan is asked for once for the scope.
 */
import { describe, expect, it, vi } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { PickerScreen } from '../../components/picker/PickerScreen.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import type { Locations } from '../../src/store/locations.js';
import { renderInk } from '../helpers/ink.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const locations: Locations = {
  cwd: '/home/u/proj',
  agentDir: '/home/u/.pi/agent',
  sessionsRoot: '/home/u/.pi/agent/sessions',
  sessionDir: '/home/u/.pi/agent/sessions/--home-u-proj--',
  customDir: false,
  source: 'default',
};
const sessions = Array.from({ length: 4 }, (_, i) =>
  makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY, firstMessage: `item ${i};` }),
);

describe('has:secret on the picker screen', () => {
  it('the header shows the scan’s progress; its answer leaves the sessions with findings', async () => {
    let progress: ((scanned: number, total: number) => void) | undefined;
    let answer: ((counts: Map<string, number>) => void) | undefined;
    const scans = vi.fn();
    const source = {
      async list(_scope, onSessions) {
        onSessions(sessions, sessions.length, sessions.length);
        return { sessions, searched: locations.sessionDir, skipped: 0 };
      },
      scanSecrets(scope, onProgress) {
        scans(scope);
        progress = onProgress;
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    } as Partial<SessionSource> as SessionSource;
    const app = renderInk(
      <InputRouter>
        <PickerScreen
          locations={locations}
          printMode={false}
          source={source}
          now={() => NOW}
          home="/home/u"
          onExit={vi.fn()}
          onOpenTree={vi.fn()}
          onOpenStats={vi.fn()}
          onOpenLabels={vi.fn()}
        />
      </InputRouter>,
      { columns: 120, rows: 20 },
    );
    await app.waitFor('item 0;');
    await app.type('has:secret');
    await app.waitFor((f) => f.includes('0/4') && f.includes('scanning for secrets 0/?'));
    // The scan is an effect: it starts once the frame that asks for it is drawn.
    await vi.waitFor(() => expect(progress).toBeDefined());
    progress!(4, 4);
    await app.waitFor('scanning for secrets 4/4');
    answer!(
      new Map([
        ['/s/1.jsonl', 2],
        ['/s/3.jsonl', 1],
        ['/s/0.jsonl', 0],
      ]),
    );
    const frame = await app.waitFor((f) => f.includes('2/4') && !f.includes('scanning for secrets'));
    expect(frame).toContain('item 1;');
    expect(frame).toContain('item 3;');
    expect(frame).not.toContain('item 0;');
    expect(scans).toHaveBeenCalledTimes(1);
    expect(scans).toHaveBeenCalledWith('cwd');
    app.unmount();
  });
});
