/**
 * NO_COLOR, FORCE_COLOR and --no-color in the full-screen app, checked on the raw bytes the app
 * wrote to a real pty: a named session draws a yellow ★ and the search field an inverse cursor.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, type PtySession, startPty } from '../helpers/pty.js';
import { E2E_TEST_MS, E2E_WAIT_MS, makeHome, startApp, type TestHome, writeSession } from './harness.js';

/** The SGR sequences in `raw` that set a colour (foreground or background, any depth). */
function colourSequences(raw: string): string[] {
  return [...raw.matchAll(/\u001b\[([0-9;]*)m/g)]
    .filter((m) =>
      m[1]!.split(';').some((p) => {
        const n = Number(p);
        return (n >= 30 && n <= 49) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107);
      }),
    )
    .map((m) => JSON.stringify(m[0]));
}

const anySgr = (raw: string): boolean => /\u001b\[[0-9;]*m/.test(raw);
const INVERSE = '\u001b[7m';

function namedSessionHome(): { home: TestHome; path: string } {
  const home = makeHome();
  const builder = new SessionBuilder({ id: '0000000e-0000-7000-8000-000000000000', cwd: home.cwd });
  builder.user('paint the fence');
  builder.assistant('painted');
  builder.name('Fence painting');
  return { home, path: writeSession(builder, home.projectDir, '2026-01-06T09-00-00-000Z_fence.jsonl', 5) };
}

async function pickerBytes(home: TestHome, args: string[], env: Record<string, string> = {}): Promise<string> {
  const pty = startApp(home, args, { env });
  await pty.waitForText('★ Fence painting');
  return quit(pty);
}

async function quit(pty: PtySession): Promise<string> {
  await pty.press(PTY_KEYS.ctrlC);
  expect(await pty.waitForExit()).toBe(130);
  return pty.rawOutput();
}

describe('colour in the full-screen app', { timeout: E2E_TEST_MS }, () => {
  it('is drawn on a colour terminal by default (the control case)', async () => {
    const { home } = namedSessionHome();
    expect(colourSequences(await pickerBytes(home, []))).not.toEqual([]);
  });

  it('NO_COLOR=1 and --no-color draw no colour, but keep the inverse text cursor', async () => {
    const { home } = namedSessionHome();
    for (const [args, env] of [
      [[], { NO_COLOR: '1' }],
      [['--no-color'], {}],
    ] as const) {
      const raw = await pickerBytes(home, [...args], env);
      expect(colourSequences(raw), JSON.stringify({ args, env })).toEqual([]);
      expect(raw).toContain(INVERSE);
    }
  });

  it('--no-color holds in the tree view too', async () => {
    const { home, path } = namedSessionHome();
    const pty = startApp(home, ['tree', path, '--no-color']);
    await pty.waitForText('paint the fence');
    expect(colourSequences(await quit(pty))).toEqual([]);
  });

  it('FORCE_COLOR=0 draws no styling at all; FORCE_COLOR wins over NO_COLOR', async () => {
    const { home } = namedSessionHome();
    expect(anySgr(await pickerBytes(home, [], { FORCE_COLOR: '0' }))).toBe(false);
    expect(colourSequences(await pickerBytes(home, [], { FORCE_COLOR: '1', NO_COLOR: '1' }))).not.toEqual([]);
  });

  it('is decided for the terminal the picker draws on, not for a captured stdout', async () => {
    const { home } = namedSessionHome();
    const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
    const script = `${quote(process.execPath)} ${quote(CLI_PATH)} --print > ${quote(join(home.root, 'OUT'))}; echo "cli-exit=$?"`;
    const withColour = startPty({
      command: '/bin/sh',
      args: ['-c', script],
      cwd: home.cwd,
      env: home.env,
      timeoutMs: E2E_WAIT_MS,
    });
    await withColour.waitForText('★ Fence painting');
    await withColour.press(PTY_KEYS.escape);
    await withColour.waitForText('cli-exit=1');
    expect(colourSequences(withColour.rawOutput())).not.toEqual([]);

    const without = startPty({
      command: '/bin/sh',
      args: ['-c', script],
      cwd: home.cwd,
      env: { ...home.env, NO_COLOR: '1' },
      timeoutMs: E2E_WAIT_MS,
    });
    await without.waitForText('★ Fence painting');
    await without.press(PTY_KEYS.escape);
    await without.waitForText('cli-exit=1');
    expect(colourSequences(without.rawOutput())).toEqual([]);
  });
});
