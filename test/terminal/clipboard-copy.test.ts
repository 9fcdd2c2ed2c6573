/** Copy through real processes: a fake xclip / tmux on PATH records what it was given. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clipboardTools, copyMessage, copyText } from '../../src/terminal/clipboard-copy.js';

let bin: string;
beforeEach(() => {
  bin = mkdtempSync(join(tmpdir(), 'pi-sessions-clip-'));
});
afterEach(() => rmSync(bin, { recursive: true, force: true }));

function fakeTool(name: string, exitCode: number): void {
  const file = join(bin, name);
  writeFileSync(
    file,
    `#!/bin/sh\n/bin/cat > "${bin}/${name}.got"\n/bin/echo "$@" > "${bin}/${name}.args"\nexit ${exitCode}\n`,
  );
  chmodSync(file, 0o755);
}

describe('clipboardTools', () => {
  it('picks the platform tool, then X11/Wayland tools, then tmux; nothing on a bare tty', () => {
    expect(clipboardTools({}, 'darwin').map((t) => t.command)).toEqual(['pbcopy']);
    expect(clipboardTools({ WAYLAND_DISPLAY: 'w', DISPLAY: ':0', TMUX: 't' }, 'linux').map((t) => t.command)).toEqual([
      'wl-copy',
      'xclip',
      'xsel',
      'tmux',
    ]);
    expect(clipboardTools({ WSL_DISTRO_NAME: 'Debian' }, 'linux').map((t) => t.command)).toEqual(['clip.exe']);
    expect(clipboardTools({}, 'linux')).toEqual([]);
  });
});

describe('copyText', () => {
  it('uses the first tool that works and says so; writes nothing to the terminal', async () => {
    fakeTool('xclip', 1);
    fakeTool('xsel', 0);
    const written: string[] = [];
    const result = await copyText('héllo', {
      env: { PATH: bin, DISPLAY: ':0' },
      platform: 'linux',
      writeToTerminal: (s) => written.push(s),
    });
    expect(result).toEqual({ via: 'tool', label: 'xsel', chars: 5 });
    expect(readFileSync(join(bin, 'xsel.got'), 'utf8')).toBe('héllo');
    expect(written).toEqual([]);
    expect(copyMessage(result)).toBe('Copied 5 characters with xsel');
  });

  it("inside tmux: tmux's buffer with -w, not an OSC 52 that tmux drops", async () => {
    fakeTool('tmux', 0);
    const result = await copyText('x', {
      env: { PATH: bin, TMUX: '/tmp/tmux-0/default,1,0' },
      platform: 'linux',
      writeToTerminal: () => {},
    });
    expect(result).toMatchObject({ via: 'tool', label: "tmux's paste buffer" });
    expect(readFileSync(join(bin, 'tmux.args'), 'utf8').trim()).toBe('load-buffer -w -');
  });

  it('no tool: plain OSC 52, and the message does not claim a success it cannot know', async () => {
    const written: string[] = [];
    const result = await copyText('hi', {
      env: { PATH: bin },
      platform: 'linux',
      writeToTerminal: (s) => written.push(s),
    });
    expect(written).toEqual(['\u001b]52;c;aGk=\u0007']);
    expect(copyMessage(result)).toMatch(
      /^Sent 2 characters to the terminal's clipboard \(OSC 52\); whether it arrives depends on the terminal$/,
    );
  });

  it('a tool that is missing from PATH falls through to the next way', async () => {
    const written: string[] = [];
    const result = await copyText('hi', {
      env: { PATH: bin, WAYLAND_DISPLAY: 'wayland-0' },
      platform: 'linux',
      writeToTerminal: (s) => written.push(s),
    });
    expect(result.via).toBe('osc52');
  });
});
