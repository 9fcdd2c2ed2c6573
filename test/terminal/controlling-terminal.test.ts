import { fstatSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acquireTerminal, type TerminalSources } from '../../src/terminal/controlling-terminal.js';

const fakeStream = (isTTY: boolean) => ({ isTTY }) as unknown as NodeJS.ReadStream & NodeJS.WriteStream;

function sources(
  stdinTTY: boolean,
  stdoutTTY: boolean,
  open: TerminalSources['open'],
): TerminalSources & { opened: string[] } {
  const opened: string[] = [];
  return {
    stdin: fakeStream(stdinTTY),
    stdout: fakeStream(stdoutTTY),
    open: (flags) => {
      opened.push(flags);
      return open(flags);
    },
    signals: { on: () => undefined, off: () => undefined },
    opened,
  };
}

const failWith = (code: string) => (): number => {
  throw Object.assign(new Error(code), { code });
};

describe('acquireTerminal', () => {
  it('uses stdin and stdout as they are when both are terminals', () => {
    const s = sources(true, true, failWith('ENXIO'));
    const result = acquireTerminal(s);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.terminal.stdin).toBe(s.stdin);
    expect(result.terminal.stdout).toBe(s.stdout);
    expect(result.terminal.stdoutRedirected).toBe(false);
    expect(result.terminal.fds).toEqual([0, 1]);
    expect(s.opened).toEqual([]);
    result.terminal.close();
  });

  it('refuses, saying why, when there is no controlling terminal', () => {
    expect(acquireTerminal(sources(true, false, failWith('ENXIO')))).toEqual({
      ok: false,
      reason: 'there is no controlling terminal',
    });
    expect(acquireTerminal(sources(false, true, failWith('ENOENT')))).toEqual({
      ok: false,
      reason: 'there is no controlling terminal',
    });
    expect(acquireTerminal(sources(false, false, failWith('EACCES')))).toEqual({
      ok: false,
      reason: '/dev/tty is not usable (EACCES)',
    });
  });

  it('closes the descriptor it opened when it is not a terminal after all', () => {
    const fds: number[] = [];
    const result = acquireTerminal(
      sources(true, false, () => {
        const fd = openSync('/dev/null', 'w');
        fds.push(fd);
        return fd;
      }),
    );
    expect(result).toEqual({ ok: false, reason: '/dev/tty is not usable (ERR_TTY_INIT_FAILED)' });
    expect(fds).toHaveLength(1);
    expect(() => fstatSync(fds[0]!)).toThrow(/EBADF/);
  });
});
