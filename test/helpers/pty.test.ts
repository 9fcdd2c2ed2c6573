import { describe, expect, it } from 'vitest';
import { PTY_KEYS, startPty } from './pty.js';

// A tiny full-screen program: alt screen + hidden cursor, shows its size, echoes keys until 'q'.
const SCRIPT = `
const out = process.stdout;
out.write('\\x1b[?1049h\\x1b[?25l');
const draw = (msg) => out.write('\\x1b[H\\x1b[2J' + 'size ' + out.columns + 'x' + out.rows + '\\r\\n' + msg);
draw('ready');
process.stdout.on('resize', () => draw('resized'));
process.stdin.setRawMode(true);
process.stdin.on('data', (data) => {
  const key = data.toString();
  if (key === 'q') {
    out.write('\\x1b[?25h\\x1b[?1049l');
    out.write('bye from main screen\\r\\n');
    process.exit(3);
  }
  draw('got ' + JSON.stringify(key));
});
`;

const startScript = (cols = 40, rows = 10) => startPty({ command: process.execPath, args: ['-e', SCRIPT], cols, rows });

describe('startPty', () => {
  it('shows the alternate screen, receives keys, restores and reports the exit code', async () => {
    const pty = startScript();
    await pty.waitForText('ready');
    expect(pty.screen()).toBe('size 40x10\nready');
    expect(pty.isAlternateScreen()).toBe(true);
    expect(pty.cursorHidden()).toBe(true);

    await pty.press('x');
    await pty.waitForText('got "x"');
    await pty.press(PTY_KEYS.down);
    await pty.waitForText('got "\\u001b[B"');

    await pty.press('q');
    expect(await pty.waitForExit()).toBe(3);
    expect(pty.isAlternateScreen()).toBe(false);
    expect(pty.cursorHidden()).toBe(false);
    expect(pty.screen()).toContain('bye from main screen');
    expect(pty.rawOutput()).toContain('\u001b[?1049h');
  });

  it('resizes the pty and the emulated screen together', async () => {
    const pty = startScript(40, 10);
    await pty.waitForText('size 40x10');
    pty.resize(60, 15);
    await pty.waitForText('size 60x15');
    expect(pty.screen()).toContain('resized');
  });

  it('times out with the screen in the error', async () => {
    const pty = startScript();
    await pty.waitForText('ready');
    await expect(pty.waitForText('never', 100)).rejects.toThrow(
      /"never" not seen within 100ms \(child still running\)[\s\S]*ready/,
    );
  });

  it('kill() ends the child and waitForExit reports the signal', async () => {
    const pty = startScript();
    await pty.waitForText('ready');
    pty.kill('SIGTERM');
    expect(await pty.waitForExit()).toBe(128 + 15);
  });
});
