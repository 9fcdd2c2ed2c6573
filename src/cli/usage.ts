/**
 * `pi-sessions help` and `pi-sessions <command> --help`: the command table (spec.ts) laid out for
 * the terminal it is printed on.
 */
import { definitionList, hangingLines, paragraph } from '../text/help-layout.js';
import {
  COMMANDS,
  type CommandSpec,
  commandSynopsis,
  ENVIRONMENT,
  EXIT_CODES,
  findCommand,
  GLOBAL_OPTIONS,
  OPTIONS,
  type OptionName,
  type OptionSpec,
  optionSynopsis,
  SESSION_ARG_NOTE,
} from './spec.js';

/** Help is laid out for the terminal it is printed on; this many columns when piped. */
export const DEFAULT_HELP_WIDTH = 80;
/** Narrower than this, help is laid out for this many columns (and the terminal wraps it). */
const NARROWEST_HELP = 40;

const helpWidth = (width: number): number => Math.max(NARROWEST_HELP, Math.floor(width));

function environmentLines(width: number): string[] {
  return [
    'Environment:',
    ...definitionList(
      ENVIRONMENT.map(([names, meaning]) => [names.join(', '), meaning] as const),
      width,
    ),
  ];
}

function optionLines(names: readonly OptionName[], width: number): string[] {
  return definitionList(
    names.map((name) => {
      const spec: OptionSpec = OPTIONS[name];
      return [`${spec.short ? `-${spec.short}, ` : '    '}${optionSynopsis(name)}`, spec.help] as const;
    }),
    width,
  );
}

function picker(): CommandSpec {
  return findCommand('')!;
}

/** `Usage: pi-sessions …`, its continuation lines under the first argument (or indented 4 when that is far). */
function usageLines(synopsis: string, width: number): string[] {
  const first = 'Usage: pi-sessions ';
  return hangingLines(synopsis, width, first, first.length <= width / 3 ? first.length : 4);
}

/** `pi-sessions help`, `pi-sessions --help`, laid out for `width` columns. */
export function usageText(width = DEFAULT_HELP_WIDTH): string {
  const columns = helpWidth(width);
  const commands = COMMANDS.filter((c) => c.name !== '');
  return [
    'Usage: pi-sessions [options] [command]',
    '',
    'Browse and manage pi coding agent sessions.',
    '',
    ...paragraph(
      'With no command, opens the full-screen session picker. It needs a terminal: when stdout is captured (pi --session "$(pi-sessions --print)") it draws on /dev/tty.',
      columns,
    ),
    '',
    'Commands:',
    ...definitionList(
      commands.map((c) => [commandSynopsis(c), c.summary] as const),
      columns,
    ),
    '',
    ...paragraph(SESSION_ARG_NOTE, columns),
    '',
    'Options with no command (the picker):',
    ...optionLines(picker().options.flat(), columns),
    '',
    'Options of every command:',
    ...optionLines(GLOBAL_OPTIONS, columns),
    '',
    ...environmentLines(columns),
    '',
    ...paragraph(EXIT_CODES, columns),
  ].join('\n');
}

/** `pi-sessions <command> --help`, laid out for `width` columns. */
export function commandHelpText(command: CommandSpec, width = DEFAULT_HELP_WIDTH): string {
  const columns = helpWidth(width);
  const own = command.options.flat();
  return [
    ...usageLines(commandSynopsis(command), columns),
    '',
    ...paragraph(`${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`, columns),
    ...(command.args.some((a) => /^[<[]session[>\].]/.test(a)) ? ['', ...paragraph(SESSION_ARG_NOTE, columns)] : []),
    ...(own.length > 0 ? ['', 'Options:', ...optionLines(own, columns)] : []),
    ...(command.details ?? []).flatMap((text) => ['', ...paragraph(text, columns)]),
    '',
    'Options of every command:',
    ...optionLines(GLOBAL_OPTIONS, columns),
    '',
    ...paragraph(EXIT_CODES, columns),
  ].join('\n');
}
