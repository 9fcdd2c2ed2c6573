/**
 * The picker's keys in a real pty, where the terminal's bytes matter: LF (Ctrl+J) apart from CR
 * under a keybindings.json remap, pi's line editing in the search (keys one at a time and in one
 * write), `--print` with marks (fzf -m), and the footer's `? more` at 80 columns.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, startPty } from '../helpers/pty.js';
import { E2E_TEST_MS, E2E_WAIT_MS, makeHome, startApp, type TestHome, writeSession } from './harness.js';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Three sessions: alpha, beta, gamma (written in that order). */
function threeSessions(home: TestHome): string[] {
  return ['alpha', 'beta', 'gamma'].map((word, i) => {
    const b = new SessionBuilder({ cwd: home.cwd });
    b.user(`${word} question`);
    b.assistant(`${word} answer`);
    return writeSession(b, home.projectDir, `${i}.jsonl`, 10 + i);
  });
}

function printToFile(home: TestHome, out: string) {
  const cli = `${quote(process.execPath)} ${quote(CLI_PATH)}`;
  return startPty({
    command: '/bin/sh',
    args: ['-c', `${cli} --print > ${quote(out)}; echo "cli-exit=$?"`],
    cwd: home.cwd,
    env: home.env,
    cols: 80,
    rows: 24,
    timeoutMs: E2E_WAIT_MS,
  });
}

describe('picker keys in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('Ctrl+J remapped to tui.select.down moves down; Enter (CR) then prints that session', async () => {
    const home = makeHome();
    const paths = threeSessions(home);
    writeFileSync(join(home.agentDir, 'keybindings.json'), JSON.stringify({ 'tui.select.down': ['down', 'ctrl+j'] }));
    const out = join(home.root, 'OUT');
    const pty = printToFile(home, out);
    await pty.waitForText('alpha question');
    await pty.press('\n');
    await pty.waitForText(/^›.*beta question/m);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${paths[1]}\n`);
  });

  it('--print with marks prints every marked path, one a line, in the order marked', async () => {
    const home = makeHome();
    const paths = threeSessions(home);
    const out = join(home.root, 'OUT');
    const pty = printToFile(home, out);
    // gamma was written last, so it is the top row and alpha the bottom one.
    await pty.waitForText(/^›.*gamma question/m);
    // Mark alpha, then gamma: Insert marks (and moves down); Ctrl+Home goes back to the top.
    await pty.press(PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.insert, PTY_KEYS.ctrlHome, PTY_KEYS.insert);
    await pty.waitForText('2 marked');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${paths[0]}\n${paths[2]}\n`);
  });

  it.each([
    ['one key at a time', false],
    ['in one write', true],
  ])(
    "the search edits with pi's keys (%s): a paste, Home, Q puts Q first; Ctrl+E, Ctrl+W, Ctrl+A, Ctrl+K",
    async (_how, together) => {
      const home = makeHome();
      threeSessions(home);
      const pty = startApp(home, [], { cols: 80, rows: 24 });
      await pty.waitForText('alpha question');
      expect(pty.screen().split('\n').at(-1)).toMatch(/→ tree {2}Enter resume.*\? more$/);
      await pty.write('\u001b[200~beta ques\u001b[201~');
      await pty.waitForText('> beta ques');
      const keys = [PTY_KEYS.home, 'Q', '\u0005', '\u0017', '\u0001', PTY_KEYS.delete, 'X', '\u000b'];
      if (together) pty.write(keys.join(''));
      else await pty.press(...keys);
      // Q first, then End, delete the last word, line start, Delete the Q, X typed, kill to the end.
      await pty.waitForText(/^> X$/m);
      expect(pty.screen()).not.toMatch(/●/);
      pty.write('\u0003');
      expect(await pty.waitForExit()).toBe(130);
    },
  );
});
