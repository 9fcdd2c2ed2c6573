#!/usr/bin/env node
/**
 * `pi-sessions`: argv → command. Exit codes: 0 success, 1 failure, 2 usage error. Errors are one
 * line on stderr, never a stack trace (set PI_SESSIONS_DEBUG=1 to see one).
 */
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  branchCommand,
  contextCommand,
  deleteCommand,
  forkCommand,
  labelCommand,
  listCommand,
  renameCommand,
  treeCommand,
  type Output,
} from './cli-commands.js';
import { resolveLocations, StoreError, type Locations } from './store/index.js';
import { sanitizeInline } from './text/terminal-text.js';
import type { InteractiveRequest } from './cli-types.js';

export const USAGE = `Usage: pi-sessions [options] [command]

Browse and manage pi coding agent sessions.

With no command, opens the full-screen session picker (needs a terminal).

Commands:
  list [--all | --tree] [--cwd DIR] [--json]   list sessions (this folder; --tree: and sub-folders; --all: every project)
  tree <session> [--json]                      open the tree view, or print the tree as JSON
  context <session> [--leaf ID] [--as-pi] --json
                                               what the model sees from the leaf (or ID); --as-pi: exactly
                                               what pi 1.6.0 sends (it ignores a compaction's retainedTail)
  rename <session> <name>                      set the session name ("" clears it)
  label <session> <entryId> [label]            set a label on an entry (no label clears it)
  branch <session> <entryId> [--summary TEXT]  make pi resume from an entry (persisted)
  fork <session> [<entryId>]                   copy the branch to the entry (default: the leaf) into a new session
  delete <session>... [--permanent]            move sessions to the trash (--permanent: delete for good)

<session> is a path, a session id, or a unique id prefix.

Options:
  --session-dir DIR   where sessions are (default: as pi resolves it)
  --print             picker: Enter prints the chosen path and exits 0; Esc exits 1
  --all               picker/list: start in all projects
  --no-cache          picker/list: read every session file, bypassing the session catalogue
                      (kept in $XDG_CACHE_HOME/pi-sessions, default ~/.cache/pi-sessions)
  -h, --help          show this help
  -v, --version       show the version
`;

const OPTIONS = {
  'session-dir': { type: 'string' },
  all: { type: 'boolean' },
  tree: { type: 'boolean' },
  cwd: { type: 'string' },
  json: { type: 'boolean' },
  leaf: { type: 'string' },
  'as-pi': { type: 'boolean' },
  summary: { type: 'string' },
  permanent: { type: 'boolean' },
  print: { type: 'boolean' },
  'no-cache': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies ParseArgsConfig['options'];

class UsageError extends Error {}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function need(positionals: string[], count: number, what: string): void {
  if (positionals.length < count) throw new UsageError(`missing ${what}`);
}

function noExtra(positionals: string[], max: number): void {
  if (positionals.length > max) throw new UsageError(`unexpected argument "${positionals[max]}"`);
}

export async function main(argv: string[], io: Output): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`pi-sessions: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    io.err('Run pi-sessions --help for usage.');
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE.trimEnd());
    return 0;
  }
  if (values.version) {
    io.out(version());
    return 0;
  }
  const [command, ...rest] = positionals;
  const locations: Locations = resolveLocations({
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values['session-dir'] !== undefined ? { sessionDir: values['session-dir'] } : {}),
  });
  try {
    switch (command) {
      case 'list':
        noExtra(rest, 0);
        return (await listCommand(locations, { scope: values.all ? 'all' : values.tree ? 'cwd-tree' : 'cwd', json: !!values.json, nowMs: Date.now(), cache: !values['no-cache'] }, io)).code;
      case 'tree':
        need(rest, 1, '<session>');
        noExtra(rest, 1);
        if (values.json) return (await treeCommand(locations, rest[0]!, io)).code;
        return await runInteractive({ kind: 'tree', session: rest[0]!, locations, print: !!values.print, all: !!values.all }, io);
      case 'context':
        need(rest, 1, '<session>');
        noExtra(rest, 1);
        if (!values.json) throw new UsageError('context prints JSON only: add --json');
        return (await contextCommand(locations, rest[0]!, values.leaf, io, { asPi: !!values['as-pi'] })).code;
      case 'rename':
        need(rest, 2, '<session> <name>');
        noExtra(rest, 2);
        return (await renameCommand(locations, rest[0]!, rest[1]!, io)).code;
      case 'label':
        need(rest, 2, '<session> <entryId>');
        noExtra(rest, 3);
        return (await labelCommand(locations, rest[0]!, rest[1]!, rest[2], io)).code;
      case 'branch':
        need(rest, 2, '<session> <entryId>');
        noExtra(rest, 2);
        return (await branchCommand(locations, rest[0]!, rest[1]!, values.summary, io)).code;
      case 'fork':
        need(rest, 1, '<session>');
        noExtra(rest, 2);
        return (await forkCommand(locations, rest[0]!, rest[1], io)).code;
      case 'delete':
        need(rest, 1, '<session>');
        return (await deleteCommand(locations, rest, !!values.permanent, io)).code;
      case undefined:
        return await runInteractive({ kind: 'picker', locations, print: !!values.print, all: !!values.all, noCache: !!values['no-cache'] }, io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`pi-sessions: ${error.message}`);
      io.err('Run pi-sessions --help for usage.');
      return 2;
    }
    if (error instanceof StoreError) {
      io.err(`pi-sessions: ${sanitizeInline(error.message)}`);
      return 1;
    }
    throw error;
  }
}

/** The full-screen views live in components/; loaded only when a terminal asks for them. */
async function runInteractive(request: InteractiveRequest, io: Output): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.err(
      `pi-sessions: the ${request.kind === 'tree' ? 'tree view' : 'session picker'} needs a terminal (stdin and stdout must be a TTY). ` +
        `For scripts use \`pi-sessions list\`${request.kind === 'tree' ? ' or `pi-sessions tree <session> --json`' : ''}.`,
    );
    return 2;
  }
  // React's development build allocates several times more per render (and slows the picker's
  // streaming list with garbage collection); it is for debugging React, not for users.
  process.env['NODE_ENV'] ??= 'production';
  const { runApp } = await import('../components/run-app.js');
  return runApp(request);
}

async function run(): Promise<void> {
  const io: Output = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
  };
  // `pi-sessions list | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  try {
    process.exitCode = await main(process.argv.slice(2), io);
  } catch (error) {
    if (process.env['PI_SESSIONS_DEBUG']) console.error(error);
    io.err(`pi-sessions: unexpected error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    process.exitCode = 1;
  }
}

void run();
