/**
 * `has:secret` on the picker screen (fake terminal, fake source): the header says the scan is
 * running and how far it is, the rows are the sessions with findings once it answers, and the
 * scan is asked for once for the scope.
 */
import { describe, expect, it, vi } from 'vitest';
import { DAY, makeInfo } from './make-info.js';
import { listingSource, renderPicker } from './picker-screen-fixture.js';

const sessions = Array.from({ length: 4 }, (_, i) =>
  makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY, firstMessage: `item ${i};` }),
);

describe('has:secret on the picker screen', () => {
  it('the header shows the scan’s progress; its answer leaves the sessions with findings', async () => {
    let progress: ((scanned: number, total: number) => void) | undefined;
    let answer: ((counts: Map<string, number>) => void) | undefined;
    const scans = vi.fn();
    const source = listingSource(sessions, {
      scanSecrets(scope, onProgress) {
        scans(scope);
        progress = onProgress;
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    const { app } = renderPicker(source, { columns: 120, rows: 20 });
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
