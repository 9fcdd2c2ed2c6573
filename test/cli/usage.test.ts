/**
 * The CLI contract, in process: every command accepts exactly the options and arguments the
 * command table gives it (exit 2 and one line otherwise), and the help texts come from that table.
 * Only rejected command lines are run here: nothing reaches the store or the terminal.
 */
import { describe, expect, it } from 'vitest';
import type { Output } from '../../src/cli/commands.js';
import { main } from '../../src/cli/main.js';
import {
  acceptedOptions,
  argumentCounts,
  COMMANDS,
  type CommandSpec,
  commandSynopsis,
  ENVIRONMENT,
  EXIT_CODES,
  OPTIONS,
  type OptionName,
  SESSION_ARG_NOTE,
} from '../../src/cli/spec.js';
import { displayWidth } from '../../src/text/terminal-text.js';

async function run(argv: string[], columns?: number): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Output = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    ...(columns !== undefined ? { columns, terminal: true } : {}),
  };
  return { code: await main(argv, io), out, err };
}

/** The arguments a command needs at least, and its required options. */
function minimal(command: CommandSpec): string[] {
  const args = Array.from({ length: argumentCounts(command).min }, (_, i) => `arg${i}`);
  const required = (command.required ?? []).map((name) => `--${name}`);
  return [...(command.name ? [command.name] : []), ...args, ...required];
}

const optionArgs = (name: OptionName): string[] => ('value' in OPTIONS[name] ? [`--${name}`, 'x'] : [`--${name}`]);

describe('each command accepts only its own options', () => {
  const cases = COMMANDS.flatMap((command) =>
    (Object.keys(OPTIONS) as OptionName[])
      .filter((name) => !acceptedOptions(command).has(name))
      .map((name) => ({ command, name })),
  );

  it.each(cases.map((c) => [c.command.name || '(picker)', c.name, c] as const))(
    '%s rejects --%s',
    async (_label, _option, { command, name }) => {
      const result = await run([...minimal(command), ...optionArgs(name)]);
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toBe(
        `pi-sessions: ${command.name || 'pi-sessions without a command'} does not take --${name} (usage: pi-sessions ${commandSynopsis(command)})`,
      );
    },
  );

  it('rejects the options of other commands: list --permanent --summary x', async () => {
    const result = await run(['list', '--permanent', '--summary', 'x']);
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      'pi-sessions: list does not take --permanent (usage: pi-sessions list [--all | --tree] [--json] [--no-cache])',
    ]);
  });

  it('rejects a choice of two, a missing required option, and wrong argument counts', async () => {
    expect((await run(['list', '--all', '--tree'])).err).toEqual([
      'pi-sessions: --all and --tree cannot be combined (usage: pi-sessions list [--all | --tree] [--json] [--no-cache])',
    ]);
    expect((await run(['context', 'x'])).err[0]).toMatch(/^pi-sessions: context needs --json \(usage: /);
    expect((await run(['label', 'x'])).err[0]).toMatch(
      /^pi-sessions: missing <entryId> \(usage: pi-sessions label <session> <entryId> \[label\]\)$/,
    );
    expect((await run(['rename', 'a', 'b', 'c'])).err[0]).toMatch(
      /^pi-sessions: unexpected argument "c" \(usage: pi-sessions rename /,
    );
    expect((await run(['list', 'extra'])).code).toBe(2);
    expect((await run(['help', 'list', 'tree'])).code).toBe(2);
  });

  it('says what is wrong with an unknown option, a missing value, an unknown command, in one safe line', async () => {
    for (const argv of [
      ['--frob'],
      ['list', '--cwd'],
      ['frob\u001b]0;TITLE\u0007'],
      ['help', 'nope'],
      ['list', '--json=yes'],
    ]) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err, argv.join(' ')).toHaveLength(1);
      expect(result.err[0]).toMatch(/^pi-sessions: /);
      expect(result.err[0]).not.toMatch(/[\u0000-\u001f]/);
    }
    expect((await run(['frob'])).err).toEqual(['pi-sessions: unknown command "frob" (see pi-sessions --help)']);
    expect((await run(['--frob'])).err[0]).toBe(
      "pi-sessions: Unknown option '--frob' (usage: pi-sessions [--print] [--all] [--query TEXT] [--current FILE] [--no-cache] [--no-mouse])",
    );
  });
});

describe('help', () => {
  it('pi-sessions help and --help print the usage: every command, every option, the exit codes', async () => {
    // Wide enough that no phrase checked here is wrapped (the layout is checked below).
    const help = await run(['help'], 1000);
    expect(help.code).toBe(0);
    expect((await run(['--help'], 1000)).out).toEqual(help.out);
    const text = help.out.join('\n');
    expect(text).toMatch(/^Usage: pi-sessions \[options\] \[command\]/);
    for (const command of COMMANDS.filter((c) => c.name !== ''))
      expect(text).toContain(`  ${commandSynopsis(command)}`);
    for (const name of Object.keys(OPTIONS)) expect(text).toContain(`--${name}`);
    expect(text).toContain('130 interrupted (Ctrl+C)');
    expect(text).toContain('PI_SESSIONS_DEBUG');
    expect(text).toContain('NO_COLOR');
  });

  it.each(COMMANDS.filter((c) => c.name !== '').map((c) => [c.name, c] as const))(
    '%s --help and help %s print its usage',
    async (name, command) => {
      const viaFlag = await run([name, '--help'], 1000);
      expect(viaFlag.code).toBe(0);
      expect(viaFlag.out[0]).toMatch(
        new RegExp(`^Usage: pi-sessions ${commandSynopsis(command).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
      );
      for (const name of command.options.flat()) expect(viaFlag.out[0]).toContain(`--${name}`);
      expect(viaFlag.out[0]).toContain('130 interrupted (Ctrl+C)');
      expect((await run(['help', name], 1000)).out).toEqual(viaFlag.out);
    },
  );
});

/** The words of `text` (split at spaces), each of which a help text must show whole. */
const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

describe('help fits the terminal it is printed on', () => {
  const helps: [string, string[], string[]][] = [
    [
      'pi-sessions --help',
      ['--help'],
      [
        ...COMMANDS.filter((c) => c.name !== '').flatMap((c) => [commandSynopsis(c), c.summary]),
        ...ENVIRONMENT.flatMap(([names, meaning]) => [names.join(', '), meaning]),
        ...COMMANDS.find((c) => c.name === '')!
          .options.flat()
          .map((name) => OPTIONS[name].help),
        EXIT_CODES,
        SESSION_ARG_NOTE,
      ],
    ],
    ...COMMANDS.filter((c) => c.name !== '').map(
      (c) =>
        [
          `${c.name} --help`,
          [c.name, '--help'],
          [commandSynopsis(c), ...c.options.flat().map((name) => OPTIONS[name].help), ...(c.details ?? [])],
        ] as [string, string[], string[]],
    ),
  ];

  it.each([80, 120])(
    'at %i columns: no line wider, no word broken, every command and option there',
    async (columns) => {
      for (const [label, argv, texts] of helps) {
        const result = await run(argv, columns);
        expect(result.code).toBe(0);
        const shown = result.out.join('\n');
        const lines = shown.split('\n');
        for (const line of lines) expect(displayWidth(line), `${label}: ${line}`).toBeLessThanOrEqual(columns);
        const tokens = new Set(lines.flatMap(words));
        for (const text of texts)
          for (const word of words(text)) expect(tokens.has(word), `${label}: "${word}" broken or missing`).toBe(true);
        // The words of each text in their order, whatever the line breaks.
        const flowing = words(shown).join(' ');
        for (const text of texts) expect(flowing, label).toContain(words(text).join(' '));
      }
    },
  );

  it('at 80 columns the descriptions keep most of the line: a long synopsis stands on its own line', async () => {
    const lines = (await run(['--help'], 80)).out.join('\n').split('\n');
    const stats = COMMANDS.find((c) => c.name === 'stats')!;
    // The synopsis on lines of its own (wrapped when it is wider than the terminal), then the description.
    const at = lines.findIndex((l) => l.startsWith('  stats '));
    expect(at).toBeGreaterThan(0);
    const description = lines.findIndex((l, i) => i > at && /^ {6}tokens and cost/.test(l));
    expect(
      lines
        .slice(at, description)
        .map((l) => l.trim())
        .join(' '),
    ).toBe(commandSynopsis(stats));
    // No description squeezed into a narrow strip: every indented line starts within the left third.
    for (const line of lines) if (/^ +\S/.test(line)) expect(/^ */.exec(line)![0].length).toBeLessThanOrEqual(26);
  });

  it('piped (no terminal, no COLUMNS): laid out for 80 columns', async () => {
    const saved = process.env['COLUMNS'];
    delete process.env['COLUMNS'];
    try {
      expect((await run(['--help'])).out).toEqual((await run(['--help'], 80)).out);
    } finally {
      if (saved !== undefined) process.env['COLUMNS'] = saved;
    }
  });
});
