/**
 * argv → command, checked against the command table (cli/spec.ts). Exit codes: 0 success,
 * 1 failure, 2 usage error or no terminal, 130 Ctrl+C in the full-screen app. Errors are one line
 * on stderr, never a stack trace (PI_SESSIONS_DEBUG adds one, see error-report.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { DEMO_STORE_ENV } from '../demo-store-env.js';
import { firstLineOf, type Locations, readSessionsSettings, resolveLocations, StoreError } from '../store/index.js';
import { applyColours, decideColours } from '../terminal/colour.js';
import { acquireTerminal } from '../terminal/controlling-terminal.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { checkCommand } from './check.js';
import { contextCommand, listCommand, type Output, treeCommand } from './commands.js';
import { exportCommand, redactCommand, secretsCheckCommand } from './export.js';
import { labelsCommand } from './labels.js';
import { mapPathCommand } from './map-path.js';
import { mergeConflictsCommand } from './merge-conflicts.js';
import {
  acceptedOptions,
  argumentCounts,
  type CommandSpec,
  commandSynopsis,
  findCommand,
  OPTIONS,
  type OptionName,
  type OptionSpec,
} from './spec.js';
import { chartColumns, statsCommand } from './stats.js';
import type { InteractiveRequest } from './types.js';
import { redoCommand, undoCommand } from './undo.js';
import { commandHelpText, usageText } from './usage.js';
import {
  branchCommand,
  deleteCommand,
  forkCommand,
  labelCommand,
  renameCommand,
  slimCommand,
} from './write-commands.js';

const PARSE_OPTIONS = Object.fromEntries(
  Object.entries(OPTIONS).map(([name, spec]: [string, OptionSpec]) => [
    name,
    { type: spec.value ? 'string' : 'boolean', ...(spec.short ? { short: spec.short } : {}) },
  ]),
) as ParseArgsConfig['options'];

/** Set by the bundler (scripts/bundle.mjs) from package.json; absent in the unbundled build. */
declare const PI_SESSIONS_VERSION: string | undefined;

function version(): string {
  if (typeof PI_SESSIONS_VERSION === 'string') return PI_SESSIONS_VERSION;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

type Values = Partial<Record<OptionName, string | boolean>>;

/** The first usage problem of `command` with these options and arguments, or undefined. */
function usageProblem(command: CommandSpec, given: OptionName[], values: Values, args: string[]): string | undefined {
  const who = command.name === '' ? 'pi-sessions without a command' : command.name;
  const accepted = acceptedOptions(command);
  const foreign = given.find((name) => !accepted.has(name));
  if (foreign) return `${who} does not take --${foreign}`;
  for (const group of command.options) {
    if (typeof group === 'string') continue;
    const chosen = group.filter((name) => values[name] !== undefined);
    if (chosen.length > 1) return `${chosen.map((name) => `--${name}`).join(' and ')} cannot be combined`;
  }
  const missing = command.required?.find((name) => values[name] === undefined);
  if (missing) return `${who} needs --${missing}`;
  const { min, max } = argumentCounts(command);
  if (args.length < min)
    return `missing ${command.args
      .filter((a) => a.startsWith('<'))
      .slice(args.length)
      .join(' ')}`;
  if (args.length > max) return `unexpected argument "${sanitizeInline(args[max]!)}"`;
  return undefined;
}

function usageError(io: Output, message: string, command?: CommandSpec): number {
  const hint = command ? `usage: pi-sessions ${commandSynopsis(command)}` : 'see pi-sessions --help';
  io.err(`pi-sessions: ${sanitizeInline(message)} (${hint})`);
  return 2;
}

export async function main(argv: string[], io: Output): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: PARSE_OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    // node's messages run on with advice about `--`: the first sentence says what is wrong.
    const message = firstLineOf(error).replace(/\. To specify a positional.*$/, '');
    return usageError(io, message, findCommand(argv.find((a) => !a.startsWith('-')) ?? ''));
  }
  const values = parsed.values as Values;
  const tokens = parsed.tokens as { kind: string; name?: string }[];
  const given = tokens.flatMap((t) => (t.kind === 'option' ? [t.name as OptionName] : []));
  const [word = '', ...args] = parsed.positionals;
  const command = findCommand(word);
  if (!command) return usageError(io, `unknown command "${word}"`);
  // Help fits the terminal it is printed on (COLUMNS, else 80 when piped), as the charts do.
  const helpColumns = chartColumns(io.columns, process.env);
  if (values.help) {
    io.out(command.name === '' ? usageText(helpColumns) : commandHelpText(command, helpColumns));
    return 0;
  }
  const problem = usageProblem(command, given, values, args);
  if (problem) return usageError(io, problem, command);
  if (command.name === 'help') {
    if (args[0] === undefined) {
      io.out(usageText(helpColumns));
      return 0;
    }
    const about = findCommand(args[0]);
    if (!about || about.name === '') return usageError(io, `unknown command "${args[0]}"`);
    io.out(commandHelpText(about, helpColumns));
    return 0;
  }
  if (values.version) {
    io.out(version());
    return 0;
  }
  const flag = (name: OptionName): boolean => values[name] === true;
  const text = (name: OptionName): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const cwd = text('cwd');
  const sessionDir = text('session-dir');
  const resolved = resolveLocations({
    ...(cwd !== undefined ? { cwd } : {}),
    ...(sessionDir !== undefined ? { sessionDir } : {}),
  });
  // pi-sessions.json, read once here: the path map travels with the locations to every command.
  const settings = readSessionsSettings(resolved.agentDir);
  const locations: Locations = settings.pathMap.length > 0 ? { ...resolved, pathMap: settings.pathMap } : resolved;
  const noColor = flag('no-color');
  const interactive = command.name === '' || (command.name === 'tree' && !flag('json'));
  // The full-screen app shows them in its status line; map-path lists them itself.
  if (!interactive && command.name !== 'map-path')
    for (const problem of settings.problems) io.err(`pi-sessions: warning: ${sanitizeInline(problem)}`);
  // Scripts are decided for stdout here (their tables and messages are plain text today, so this
  // only fixes chalk's level); the full-screen app for the terminal it draws on.
  const scriptColours = decideColours({ noColorFlag: noColor, env: process.env, stream: process.stdout });
  if (!interactive) applyColours(scriptColours, process.stdout);
  const [session = '', second, third] = args;
  try {
    switch (command.name) {
      case 'list':
        return (
          await listCommand(
            locations,
            {
              scope: flag('all') ? 'all' : flag('tree') ? 'cwd-tree' : 'cwd',
              json: flag('json'),
              nowMs: Date.now(),
              cache: !flag('no-cache'),
            },
            io,
          )
        ).code;
      case 'labels':
        return (
          await labelsCommand(
            locations,
            {
              scope: flag('all') ? 'all' : flag('tree') ? 'cwd-tree' : 'cwd',
              json: flag('json'),
              nowMs: Date.now(),
              cache: !flag('no-cache'),
            },
            io,
          )
        ).code;
      case 'tree':
        if (flag('json')) return (await treeCommand(locations, session, io)).code;
        return await runInteractive(
          {
            kind: 'tree',
            session,
            locations,
            print: flag('print') || flag('print-entry'),
            printEntry: flag('print-entry'),
            all: false,
            settingsProblems: settings.problems,
            noMouse: flag('no-mouse'),
          },
          noColor,
          io,
        );
      case 'context':
        return (await contextCommand(locations, session, text('leaf'), io, { asPi: flag('as-pi') })).code;
      case 'rename':
        return (await renameCommand(locations, session, second!, io)).code;
      case 'label':
        return (await labelCommand(locations, session, second!, third, io)).code;
      case 'branch':
        return (await branchCommand(locations, session, second!, text('summary'), io)).code;
      case 'fork':
        return (await forkCommand(locations, session, second, flag('json'), io)).code;
      case 'delete':
        return (await deleteCommand(locations, args, flag('permanent'), io)).code;
      case 'slim':
        return (await slimCommand(locations, session, { yes: flag('yes'), json: flag('json') }, io)).code;
      case 'export':
        return (
          await exportCommand(
            locations,
            session,
            {
              ...optional('leaf', text('leaf')),
              ...optional('format', text('format')),
              ...optional('out', text('out')),
              allBranches: flag('all-branches'),
              redact: flag('redact'),
              keepSecrets: flag('keep-secrets'),
            },
            io,
          )
        ).code;
      case 'redact':
        return (await redactCommand(locations, session, { yes: flag('yes'), json: flag('json') }, io)).code;
      case 'merge-conflicts':
        if (args.length > 0 && flag('all'))
          return usageError(io, 'merge-conflicts takes a session or --all, not both', command);
        return (
          await mergeConflictsCommand(
            locations,
            {
              ...(args.length > 0 ? { session } : {}),
              all: flag('all'),
              yes: flag('yes') && !flag('dry-run'),
              json: flag('json'),
            },
            io,
          )
        ).code;
      case 'map-path':
        if (args.length === 1) return usageError(io, 'map-path needs FROM and TO (or nothing, to list)', command);
        if (args.length === 0 && text('host') !== undefined)
          return usageError(io, '--host goes with FROM and TO', command);
        return mapPathCommand(
          locations,
          { ...optional('from', args[0]), ...optional('to', args[1]), ...optional('host', text('host')) },
          io,
        ).code;
      case 'undo':
        return (await undoCommand(locations, { list: flag('list'), force: flag('force'), skip: flag('skip') }, io))
          .code;
      case 'redo':
        return (await redoCommand(locations, flag('force'), io)).code;
      case 'stats':
        return statsCommand(
          locations,
          {
            ...optional('report', args[0]),
            all: flag('all'),
            breakdown: flag('breakdown'),
            json: flag('json'),
            allPeriods: flag('all-periods'),
            nowMs: Date.now(),
            columns: chartColumns(io.columns, process.env),
            // io.out writes to stdout itself, not through applyColours' colour-stripping view.
            colour: scriptColours.level > 0 && !scriptColours.noColour,
            ...optional('since', text('since')),
            ...optional('until', text('until')),
            ...optional('by', text('by')),
            ...optional('timezone', text('timezone')),
            ...optional('order', text('order')),
          },
          io,
        ).code;
      case 'check':
        if (args.length > 0 && flag('all')) return usageError(io, 'check takes a session or --all, not both', command);
        if (flag('secrets'))
          return (
            await secretsCheckCommand(
              locations,
              {
                ...(args.length > 0 ? { session } : {}),
                all: flag('all'),
                json: flag('json'),
                cache: !flag('no-cache'),
              },
              io,
            )
          ).code;
        return (
          await checkCommand(
            locations,
            { ...(args.length > 0 ? { session } : {}), all: flag('all'), json: flag('json') },
            io,
          )
        ).code;
      default: {
        const current = text('current');
        const query = text('query');
        return await runInteractive(
          {
            kind: 'picker',
            locations,
            print: flag('print'),
            all: flag('all'),
            noCache: flag('no-cache'),
            noMouse: flag('no-mouse'),
            // The listing's paths are absolute: a relative --current is taken from the cwd.
            ...(current !== undefined ? { current: resolve(current) } : {}),
            ...(query !== undefined ? { query } : {}),
            ...(process.env[DEMO_STORE_ENV] === locations.agentDir ? { demo: true } : {}),
            settingsProblems: settings.problems,
          },
          noColor,
          io,
        );
      }
    }
  } catch (error) {
    if (error instanceof StoreError) {
      io.err(`pi-sessions: ${sanitizeInline(error.message)}`);
      return 1;
    }
    throw error;
  }
}

/** `{name: value}` when the option was given, `{}` otherwise (exactOptionalPropertyTypes). */
function optional<K extends string>(name: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, string>);
}

/** The one colour decision of the process, for the stream its output is drawn on; returns the stream to draw on. */
function decideColour<T extends NodeJS.WriteStream>(noColorFlag: boolean, stream: T): T {
  return applyColours(decideColours({ noColorFlag, env: process.env, stream }), stream);
}

/**
 * The full-screen views live in components/; loaded only when there is a terminal for them. With
 * stdout captured they draw on /dev/tty (see controlling-terminal.ts).
 */
async function runInteractive(request: InteractiveRequest, noColor: boolean, io: Output): Promise<number> {
  const acquired = acquireTerminal();
  if (!acquired.ok) {
    io.err(
      `pi-sessions: the ${request.kind === 'tree' ? 'tree view' : 'session picker'} needs a terminal (${acquired.reason}). ` +
        `For scripts use \`pi-sessions list\`${request.kind === 'tree' ? ' or `pi-sessions tree <session> --json`' : ''}.`,
    );
    return 2;
  }
  const terminal = { ...acquired.terminal, stdout: decideColour(noColor, acquired.terminal.stdout) };
  try {
    // React's development build allocates several times more per render (and slows the picker's
    // streaming list with garbage collection); it is for debugging React, not for users.
    process.env['NODE_ENV'] ??= 'production';
    const { runApp } = await import('../../components/run-app.js');
    return await runApp(request, terminal);
  } finally {
    terminal.close();
  }
}
