/**
 * The tree view on an entry read from a line too long to hold (store/read/too-large.ts): its row says
 * `[too large: 200 MB]`, and Copy refuses it (only the start of its text was read: a cut copy
 * would pass for the whole), while the entries around it copy as usual.
 */
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import { markTooLarge } from '../../src/store/read/too-large.js';
import { KEYS, renderInk } from '../helpers/ink.js';
import { assistant, resetClock, storeOf, user } from './helpers.js';

function mount() {
  resetClock();
  const prompt = user('u1', null, 'show me the log');
  const huge = assistant('a1', 'u1', 'the first 64 KB of a very long answer');
  markTooLarge(huge, { line: 3, bytes: 200 * 1024 * 1024, cutStrings: 1, droppedValues: false });
  const after = user('u2', 'a1', 'thanks');
  const app = renderInk(
    <InputRouter>
      <TreeScreen
        path="/tmp/test.jsonl"
        store={storeOf([prompt, huge, after])}
        live={false}
        env={{}}
        onBack={() => {}}
        onExit={() => {}}
      />
    </InputRouter>,
    { columns: 100, rows: 20 },
  );
  return app;
}

describe('the tree view on a line too large to read whole', () => {
  test('the row says so; Copy refuses that entry and copies the next', async () => {
    const app = mount();
    await app.waitFor('assistant: [too large: 200 MB] the first 64 KB of a very long answer');
    await app.settle();
    await app.press(KEYS.up);
    await app.waitFor('› • assistant: [too large: 200 MB]');
    await app.press('\u0018');
    await app.waitFor('Not copied: line 3 is 200 MB, too large to read whole');
    expect(app.stdout.output()).not.toContain('\u001b]52;');
    await app.settle();
    await app.press(KEYS.down);
    await app.press('\u0018');
    await app.waitFor("Sent 6 characters to the terminal's clipboard (OSC 52)");
  });
});
