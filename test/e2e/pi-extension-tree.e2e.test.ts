/**
 * `/sessions-tree` inside the real pi 1.6.0 TUI: "Resume from here" is pi's own tree move
 * (`ctx.navigateTree`), as pi's /tree makes it. pi-sessions writes nothing for it: the tree
 * closes at once, pi redraws its conversation up to the chosen point and, at a user message,
 * moves to the message's parent and puts the message's text in its editor. pi's leaf lives in
 * pi until pi writes its next entry (here `/name`), which then hangs from that point: the file
 * read with pi's own SessionManager says where pi was.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, type TestHome, writeSession } from './harness.js';
import { command, expectPiHasTheTerminal, firstCtrlC, footer, lastClearSeen, nodeForPi, startPi } from './pi-tui.js';

const nodeOrSkip = nodeForPi();

/** A 1×1 PNG: the image a user pasted with the message. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

interface Gamma {
  file: string;
  replyOne: string;
  promptTwo: string;
}

/**
 * Two turns; the second prompt has two text blocks around an image (pi's /tree joins a message's
 * text blocks with nothing between them and leaves images out: pi-ai's `contentText(content, "")`).
 */
function gammaSession(home: TestHome): Gamma {
  const c = new SessionBuilder({ id: '0000c0de-0000-7000-8000-000000000000', cwd: home.cwd });
  c.user('gamma prompt one');
  const replyOne = c.assistant('gamma reply one');
  const promptTwo = c.user([
    { type: 'text', text: 'gamma edit me' },
    { type: 'image', data: PIXEL, mimeType: 'image/png' },
    { type: 'text', text: ' and this too' },
  ]);
  c.assistant('gamma reply two');
  c.name('Gamma tree work');
  return { file: writeSession(c, home.projectDir, 'gamma.jsonl', 2), replyOne, promptTwo };
}

/** What pi's editor shows for the second prompt: its text blocks joined as pi joins them. */
const PROMPT_TWO_TEXT = 'gamma edit me and this too';

/** Opens /sessions-tree, moves up to the row matching `row` and picks "Resume from here", a key a read. */
async function resumeFromHere(pty: PtySession, ups: number, row: RegExp): Promise<void> {
  await command(pty, '/sessions-tree');
  await pty.waitForText('Session Tree');
  await pty.waitForText(/^› .*assistant: gamma reply two/m);
  for (let i = 0; i < ups; i++) await pty.press(PTY_KEYS.up);
  await pty.waitForText(row);
  await pty.press(PTY_KEYS.enter);
  await pty.waitForText(/❯ Resume from here +│/);
  await pty.press(PTY_KEYS.enter);
}

/** pi (Node 22) on the gamma session in a new home, at its leaf, its footer drawn. */
async function piOnGamma(ctx: Parameters<typeof nodeOrSkip>[0]): Promise<{ gamma: Gamma; pty: PtySession }> {
  const node = nodeOrSkip(ctx);
  const home = makeHome();
  const gamma = gammaSession(home);
  const pty = await startPi(node, home, gamma.file, 'gamma reply two');
  await pty.waitForText(footer('Gamma tree work'));
  return { gamma, pty };
}

/** pi writes its next entry (a session name) and the file, read with pi, says where it hangs. */
async function parentOfPisNextEntry(pty: PtySession, file: string): Promise<string | null> {
  await command(pty, '/name Gamma moved');
  await pty.waitForText(footer('Gamma moved'));
  const { manager } = await openWithPi(file);
  const last = manager.getEntries().at(-1)!;
  expect(last.type).toBe('session_info');
  expect(manager.getLeafId()).toBe(last.id);
  return last.parentId;
}

describe('/sessions-tree "Resume from here" inside pi 1.6.0: pi\u2019s own move', { timeout: E2E_TEST_MS }, () => {
  it('at a user message (text blocks and an image): pi resumes at its parent with its text in the editor; nothing written', async (ctx) => {
    const { gamma, pty } = await piOnGamma(ctx);
    // pi writes an entry of its own as it starts (its thinking level): the file as pi left it.
    const before = readFileSync(gamma.file, 'utf8');

    await resumeFromHere(pty, 1, /^› .*user: gamma edit me/m);
    // The tree closes at once; pi draws its conversation up to the reply before the message and
    // holds the message's text in its editor: once on the screen, and not in the conversation.
    await pty.waitForScreen(
      (s) =>
        pty.isAlternateScreen() &&
        footer('Gamma tree work').test(s) &&
        s.includes(PROMPT_TWO_TEXT) &&
        s.includes('gamma reply one') &&
        !s.includes('gamma reply two'),
      `pi's conversation up to "gamma reply one", "${PROMPT_TWO_TEXT}" in its editor`,
    );
    const lines = pty.screen().split('\n');
    expect(lines.filter((line) => line.includes('gamma edit me'))).toHaveLength(1);
    // Below the conversation: the editor is under its last message.
    const editorLine = lines.findIndex((line) => line.includes(PROMPT_TWO_TEXT));
    expect(editorLine).toBeGreaterThan(lines.findIndex((line) => line.includes('gamma reply one')));
    expect(pty.screen()).toContain('Navigated to selected point');
    expect(readFileSync(gamma.file, 'utf8')).toBe(before);

    // The text is pi's editor's to send or drop; cleared, pi's next entry hangs from the parent.
    await firstCtrlC(pty);
    await pty.waitForScreen((s) => !s.includes(PROMPT_TWO_TEXT), 'the editor cleared');
    lastClearSeen.set(pty, Date.now());
    expect(await parentOfPisNextEntry(pty, gamma.file)).toBe(gamma.replyOne);
  });

  it('at an assistant reply, the keys in one write (Up, Up, Enter, Enter): pi resumes there, the editor stays empty; nothing written', async (ctx) => {
    const { gamma, pty } = await piOnGamma(ctx);
    // pi writes an entry of its own as it starts (its thinking level): the file as pi left it.
    const before = readFileSync(gamma.file, 'utf8');

    await command(pty, '/sessions-tree');
    await pty.waitForText(/^› .*assistant: gamma reply two/m);
    pty.write(PTY_KEYS.up + PTY_KEYS.up + PTY_KEYS.enter + PTY_KEYS.enter);
    await pty.waitForScreen(
      (s) => pty.isAlternateScreen() && s.includes('Navigated to selected point') && !s.includes('gamma reply two'),
      'pi shows the branch up to "gamma reply one"',
    );
    expect(pty.screen()).toContain('gamma reply one');
    expect(pty.screen()).not.toContain('gamma edit me');
    expect(readFileSync(gamma.file, 'utf8')).toBe(before);
    await expectPiHasTheTerminal(pty, 'Gamma tree work');
    expect(await parentOfPisNextEntry(pty, gamma.file)).toBe(gamma.replyOne);
  });

  it('after a label in the same tree: pi reads the file again (the label is pi\u2019s too), then moves, the text in its editor', async (ctx) => {
    const { gamma, pty } = await piOnGamma(ctx);

    await command(pty, '/sessions-tree');
    await pty.waitForText(/^› .*assistant: gamma reply two/m);
    await pty.press(PTY_KEYS.up, PTY_KEYS.up);
    await pty.waitForText(/^› .*assistant: gamma reply one/m);
    await pty.press('L');
    await pty.waitForText('Label');
    await pty.press(...'kept'.split(''), PTY_KEYS.enter);
    await pty.waitForText('Labeled [kept]');
    await pty.press(PTY_KEYS.down);
    await pty.waitForText(/^› .*user: gamma edit me/m);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(/❯ Resume from here +│/);
    await pty.press(PTY_KEYS.enter);

    await pty.waitForScreen(
      (s) =>
        pty.isAlternateScreen() &&
        s.includes(PROMPT_TWO_TEXT) &&
        s.includes('gamma reply one') &&
        !s.includes('gamma reply two'),
      `pi reloaded, up to "gamma reply one", "${PROMPT_TWO_TEXT}" in its editor`,
    );
    // pi's switch says its word last.
    expect(pty.screen()).toContain('Resumed session');
    await firstCtrlC(pty);
    await pty.waitForScreen((s) => !s.includes(PROMPT_TWO_TEXT), 'the editor cleared');
    lastClearSeen.set(pty, Date.now());
    expect(await parentOfPisNextEntry(pty, gamma.file)).toBe(gamma.replyOne);
    // pi read the label before it moved: its next write kept it.
    const { manager } = await openWithPi(gamma.file);
    expect(manager.getLabel(gamma.replyOne)).toBe('kept');
  });
});
