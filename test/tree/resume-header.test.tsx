/**
 * Resume from here, through the screen and the real store on a real file: the restated label
 * keeps its time (Shift+T shows the label's original time, not the time of the resume) and the
 * header's branch count stays what it was (the leaf move is bookkeeping, not a branch).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import { formatLabelTime } from '../../src/tree/entry-display.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { KEYS, renderInk } from '../helpers/ink.js';

const dir = tempDir('resume-header-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 1, 5, 12, 0, 0);

describe('resume from here on a labelled entry', () => {
  test('keeps the label’s time, and the header does not count the leaf move as a branch', async () => {
    const b = new SessionBuilder({ startMs: Date.UTC(2026, 1, 5, 11, 15, 0) });
    b.user('first prompt');
    const a1 = b.assistant('first answer');
    b.user('second prompt');
    b.assistant('second answer');
    b.label(a1, 'best approach');
    const path = b.writeTo(join(dir, 'session.jsonl'));
    const labelTime = formatLabelTime(new Date(Date.UTC(2026, 1, 5, 11, 15, 5)).toISOString(), NOW);

    const app = renderInk(
      <InputRouter>
        <TreeScreen path={path} onBack={() => {}} onExit={() => {}} now={() => NOW} />
      </InputRouter>,
      { columns: 100, rows: 24 },
    );
    await app.waitFor('second answer');
    await app.settle();
    expect(app.lastFrame()).toContain('5 entries · 0 branch points');
    await app.press('T');
    await app.waitFor(`[best approach] ${labelTime} assistant: first answer`);
    await app.press(KEYS.up, KEYS.up);
    await app.waitFor(`› • [best approach] ${labelTime} assistant: first answer`);
    await app.press(KEYS.enter);
    await app.waitFor('Resume from here');
    await app.press(KEYS.enter);
    const after = await app.waitFor((f) => f.includes('6 entries') && f.includes('Leaf moved'));
    expect(after).toContain('6 entries · 0 branch points');
    expect(after).toContain(`◆ [best approach] ${labelTime} assistant: first answer`);
  });
});
