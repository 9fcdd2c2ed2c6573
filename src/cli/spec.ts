/**
 * The one table of `pi-sessions` commands and options, as data, with what is read off it: the
 * argument checks in main.ts, the help texts (usage.ts) and the README's command table
 * (src/tools/docs/command-table.ts) all derive from it, so they cannot disagree.
 */
import { WHEN_FORMS } from '../format.js';

export interface OptionSpec {
  short?: string;
  /** Placeholder of the option's value; absent for a flag. */
  value?: string;
  help: string;
}

export const OPTIONS = {
  print: {
    help: "print the chosen session's path on stdout instead of opening it (picker: Enter; tree: Open in pi), exit 0; Esc exits 1 in the picker",
  },
  'print-entry': {
    help: '--print, and "Resume from here" (without a summary) writes nothing: it prints `entry <id>` and exits 0, for the caller to move there itself (the pi extension: pi\'s own /tree move, the message back in its editor)',
  },
  all: { help: 'every project (the picker starts there)' },
  tree: { help: 'this folder and its sub-folders' },
  json: { help: 'print JSON (for scripts) instead of a table or the full-screen view' },
  leaf: { value: 'ID', help: 'from this entry instead of the leaf' },
  'all-branches': { help: 'every branch of the session, not only the one to the leaf' },
  format: { value: 'FORMAT', help: 'md (default), html or jsonl; from the --out file name when it ends in one' },
  out: { value: 'FILE', help: 'write to this new file (never over an existing one) instead of stdout' },
  redact: { help: 'replace each secret found with [REDACTED kind]' },
  'keep-secrets': { help: 'export the secrets found as they are' },
  secrets: { help: 'scan for credentials instead (API keys, tokens, private keys, passwords in URLs), masked' },
  'as-pi': { help: "exactly what pi 1.6.0 sends (it ignores a compaction's retainedTail)" },
  summary: { value: 'TEXT', help: 'resume after a branch summary with this text' },
  since: { value: 'WHEN', help: 'from this day (2026-03-01, 20260301, today), month (2026-03) or age (30d, 2w, 12h)' },
  until: {
    value: 'WHEN',
    help: 'up to this time: a day or month given is included whole, a date-time or age is where it stops',
  },
  timezone: {
    value: 'TZ',
    help: 'days, weeks, months and the dates of --since/--until in this IANA zone (UTC, Europe/Berlin; default: local)',
  },
  order: {
    value: 'ORDER',
    help: "a table's rows asc (oldest first) or desc (the latest first; the default, as ccusage)",
  },
  breakdown: { help: "one row per model under each of a table's rows" },
  by: { value: 'PERIOD', help: 'the timeline per day, week or month (default: day)' },
  'all-periods': {
    help: 'a bar for every day, week or month with usage (default: the latest 10, then "… and N more" with their total)',
  },
  permanent: { help: 'delete for good instead of moving to the trash' },
  current: {
    value: 'FILE',
    help: 'the session pi is in (the pi extension passes it): marked "[current]" and never deleted from the picker',
  },
  query: { value: 'TEXT', help: 'open the picker with this search typed in' },
  yes: { help: 'do it (without it: only say what it would do)' },
  'dry-run': { help: 'only say what it would do (the default without --yes)' },
  list: {
    help: 'list the changes that can be undone, newest first, each with what undoing does (and why it cannot be), and how far back the history goes',
  },
  force: { help: 'do it even when pi has written to the file since (its entries stay; ours is taken back on top)' },
  skip: {
    help: 'pass over the latest change without undoing it (it stays as it is): the change before it becomes the one undo takes back',
  },
  host: {
    value: 'NAME',
    help: 'the machine the mapped paths come from (shown as "Written on NAME", searched by host:)',
  },
  'no-mouse': {
    help: 'leave the mouse to the terminal (its own text selection) instead of wheel scrolling and clicks; "pi-sessions": {"mouse": false} in pi\'s settings.json does the same',
  },
  'no-cache': { help: 'bypass the session catalogue ($XDG_CACHE_HOME/pi-sessions, default ~/.cache/pi-sessions)' },
  'session-dir': { value: 'DIR', help: 'where sessions are (default: as pi resolves it)' },
  cwd: { value: 'DIR', help: 'act as if run in DIR (its sessions are "this folder")' },
  'no-color': { help: 'no colour (see NO_COLOR and FORCE_COLOR below)' },
  help: { short: 'h', help: 'show this help' },
  version: { short: 'v', help: 'show the version' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** Accepted by every command. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ['session-dir', 'cwd', 'no-color', 'help'];

export interface CommandSpec {
  /** The command word; '' is the picker (no command). */
  name: string;
  /** Positional arguments as shown: `<x>` required, `[x]` optional, a `...` suffix repeats. */
  args: readonly string[];
  /** Its own options in the order shown; an inner array is a choice of one (`[--all | --tree]`). */
  options: readonly (OptionName | readonly OptionName[])[];
  /** Options it cannot run without. */
  required?: readonly OptionName[];
  /** One line for the usage text. */
  summary: string;
  /** The README's description (markdown). */
  doc: string;
  /** Further paragraphs of its `--help` (plain text, wrapped). */
  details?: readonly string[];
}

/** The `check --json` shape, stated once for the README and `pi-sessions help check`. */
const CHECK_JSON_SHAPE =
  '`{version: 1, searched, fileCount, problemCount, filesWithProblems, files: [{path, sessionId, problems: [{path, line, kind, severity, message, pi, fix}], ' +
  'health: {size, entries, compactions, toolOutputBytes, toolOutputShare, largestEntries: [{line, id, type, bytes}]} | null}], pathSuggestions: [{from, to, sessions, example: {cwd, mapped}}]}`';

/** The `check --secrets --json` shape. */
const SECRETS_JSON_SHAPE =
  '`{version: 1, searched, fileCount, secretCount, filesWithSecrets, files: [{path, sessionId, findings: [{entryId, line, kind, masked}], problem}]}`';

const STATS_JSON_SHAPE =
  '`{version: 1, searched, since, until, timeZone, totals, byDay, byWeek, byMonth, byProject, byModel, bySession: [{path, id, cwd, title, created, usage, models, lastActivity, copiedEntries, repeatedEntries, branches: [{leafId, active, entries, prompt, usage}]}], excluded: [{path, line, entryId, field, value, why}]}`';
const TABLE_JSON_SHAPE =
  '`{version: 1, report, searched, since, until, timeZone, daily|weekly|monthly|sessions: [{date|week|month|sessionId, inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, totalTokens, totalCost, modelsUsed, modelBreakdowns: [{modelName, inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, totalTokens, cost}]}], totals, excluded}`';

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: '',
    args: [],
    options: ['print', 'all', 'query', 'current', 'no-cache', 'no-mouse', 'version'],
    summary: 'the full-screen session picker (needs a terminal)',
    doc: 'the picker (current folder; `--all` for every project; `--print`: Enter prints the path, Esc exits 1; it draws on the terminal even when stdout is captured)',
  },
  {
    name: 'list',
    args: [],
    options: [['all', 'tree'], 'json', 'no-cache'],
    summary: 'list the sessions of this folder (--tree: and sub-folders; --all: every project)',
    doc: "a table or JSON (`{version: 1, searched, sessions: [...]}`; each session pi's `SessionInfo` fields in pi's order, plus size, counts, branches, leaf, labels, models, usage, problems; see [JSON output](#json-output))",
  },
  {
    name: 'labels',
    args: [],
    options: [['all', 'tree'], 'json', 'no-cache'],
    summary: 'every label of every session in this folder (--tree: and sub-folders; --all: every project)',
    doc: 'a table or JSON (`{version: 1, searched, labels: [{label, time, entryId, entryType, text, copiedFrom, session: {id, name, title, path, cwd}}]}`, newest label first): the bookmarks of every session in scope; a label a fork copied from its parent is marked ⑂',
  },
  {
    name: 'tree',
    args: ['<session>'],
    options: [['json', 'print', 'print-entry'], 'no-mouse'],
    summary: 'open the tree view, or print the tree as JSON',
    doc: 'the tree view (`--print`: Open in pi prints the path instead; `--print-entry`: and "Resume from here" prints `entry <id>`, writing nothing), or `{version: 1, path, header, diskVersion, sessionName, leafId, entryCount, entries, tree, labels, labelTimestamps, branch, problems}`',
  },
  {
    name: 'context',
    args: ['<session>'],
    options: ['leaf', 'as-pi', 'json'],
    required: ['json'],
    summary: 'what the model sees from the leaf (or ID), as JSON; --as-pi: exactly what pi 1.6.0 sends',
    doc:
      `\`{version: 1, rule, model, thinkingLevel, contextEntries, messages, sources, droppedByPi}\`: what ` +
      `the model sees. \`messages\` are exactly the model's messages; \`sources\` (parallel) ` +
      `names the entry each came from (\`{entryId}\`) or the compaction whose \`retainedTail\` ` +
      `holds it (\`{retainedBy, index}\`). A compaction with \`retainedTail\` is a checkpoint ` +
      `(its summary, its retained messages, then later entries); pi 1.6.0 ignores the tail: ` +
      `\`droppedByPi\` (null when pi 1.6.0 agrees) gives how many retained messages it leaves ` +
      `out and which earlier entries it keeps instead (by \`firstKeptEntryId\`). \`--as-pi\` ` +
      `gives pi 1.6.0's exact answer`,
  },
  {
    name: 'rename',
    args: ['<session>', '<name>'],
    options: [],
    summary: 'set the session name ("" clears it)',
    doc: 'set the name (`""` clears it)',
  },
  {
    name: 'label',
    args: ['<session>', '<entryId>', '[label]'],
    options: [],
    summary: 'set a label on an entry (no label clears it)',
    doc: 'set or clear a label',
  },
  {
    name: 'branch',
    args: ['<session>', '<entryId>'],
    options: ['summary'],
    summary: 'make pi resume from an entry (persisted)',
    doc: "make pi resume from an entry (pi's `/tree` rules)",
  },
  {
    name: 'fork',
    args: ['<session>', '[entryId]'],
    options: ['json'],
    summary: 'copy the branch to the entry (default: the leaf; before a user message: its parent) into a new session',
    doc: 'copy the branch to a new session, like `/fork` and `/clone`; prints its path (and, forked before a user message, the text to re-send on stderr); `--json`: `{version: 1, path, id, entries, editorText?}`',
  },
  {
    name: 'delete',
    args: ['<session>...'],
    options: ['permanent'],
    summary: 'move sessions to the trash (--permanent: delete for good)',
    doc: 'move to the trash (never permanent unless asked)',
  },
  {
    name: 'slim',
    args: ['<session>'],
    options: ['yes', 'json'],
    summary:
      'keep only the active branch: copy it to a new session, the original to the trash (--yes: do it; without: the sizes it would give)',
    doc: 'keep only the active branch: a fork of it into a new file, then the original to the trash (never rewritten in place); shows the size before and after; `pi-sessions undo` restores both. `--json`: `{version: 1, done: false, path, linkTarget, sizeBefore, entries, branchEntries, estimatedAfter}`, with `--yes` `{version: 1, done: true, path, slimPath, linkTarget, sizeBefore, sizeAfter, entriesBefore, entriesAfter}`; `linkTarget`: the file a symlinked session leads to (it stays; the link goes to the trash), else null',
  },
  {
    name: 'redact',
    args: ['<session>'],
    options: ['yes', 'json'],
    summary:
      'remove the secrets check --secrets finds: a redacted copy replaces the file, the original to the trash (--yes: do it; without: what it would replace)',
    doc:
      "like `slim`, never a rewrite in place: a copy with each secret replaced by `[REDACTED kind]` (same session id and entry ids; every line without a secret byte for byte as it was) takes the file's place, and the original goes to the trash, where it still holds the secrets until the trash is emptied; `pi-sessions undo` puts it back. " +
      '`--json`: `{version: 1, done: false, path, findings, lines}`, with `--yes` `{version: 1, done: true, path, findings, lines, sizeBefore, sizeAfter}`',
  },
  {
    name: 'merge-conflicts',
    args: ['[session]'],
    options: ['all', ['dry-run', 'yes'], 'json'],
    summary:
      "merge the conflict copies a sync tool left beside a session (this folder's; --all: every project's) into one file (--yes: do it)",
    doc:
      "conflict copies (Syncthing's `<name>.sync-conflict-<date>-<time>-<device>.jsonl`, Dropbox's `<name> (… conflicted copy …).jsonl`, `<name>.conflict-….jsonl`, with the session id of `<name>.jsonl`) merged into one file at the original's name: the entries they share once, each copy's own entries as branches, and pi resumes where the copy modified last left off; every file merged goes to the trash and `pi-sessions undo` puts them all back byte for byte. " +
      'Refused (nothing written) when two files hold different entries with the same id. Without `--yes` (or with `--dry-run`) it says what each file adds. ' +
      '`--json`: `{version: 1, done, searched, groups: [{original, sessionId, entries, leafFrom, sizeBefore, sizeAfter, files: [{path, tool, device, time, entries, own}], changeId?} | {original, error}]}`',
    details: [
      'Exit 0 when every group was merged (or planned, or none was found); 1 when one could not be merged (the reason is given; the other groups are merged all the same).',
      'Here <session> is the original or one of its copies, by its path: they share the session id, so an id names more than one file.',
    ],
  },
  {
    name: 'undo',
    args: [],
    options: [['list', 'force', 'skip']],
    summary:
      'undo the latest change pi-sessions made, even after a restart (--list: what can be undone; --skip: pass over it)',
    doc:
      "undo the latest rename, label, branch, fork, delete, slim, redact or merge, pi's append-only way (refused when pi has written since, unless `--force`). " +
      'Only session files in the sessions folders and files in the trash pi-sessions uses are touched, and only when they are still what the journal says; ' +
      'a change that cannot be undone (say, the trash was emptied) is refused with the reason, and `--skip` passes over it. ' +
      'Two undos at once take back one change: the other says it was already undone (exit 1). ' +
      '`--list`: one line per change (time, kind, the session, what undoing does), then how far back the history goes',
    details: [
      'Exit 0 when a change was undone (or skipped, or listed); 1 when there is nothing to undo, the change was already undone by another pi-sessions, it cannot be undone (the reason is given; --skip passes over it), or pi has written to the file since (--force undoes it anyway).',
      'The journal keeps at least the newest 200 changes; --list says since when it holds them.',
      'A session outside the sessions folders (a path given to rename, say) is undone only with --session-dir naming its folder.',
    ],
  },
  {
    name: 'redo',
    args: [],
    options: ['force'],
    summary: 'take back the latest undo (re-apply the change it undid)',
    doc: 'redo the change the latest undo took back: a rename, label or branch is written again, a delete trashes again, a fork comes back from the trash, a slim slims again, a merge merges again. Only while no new change was made since the undo; refused when pi has written since, unless `--force`',
    details: [
      'Exit 0 when it was redone; 1 when there is nothing to redo (no undo since the latest change), it cannot be redone (the reason is given), or pi has written to the file since (--force redoes it anyway).',
    ],
  },
  {
    name: 'export',
    args: ['<session>'],
    options: [['leaf', 'all-branches'], 'format', 'out', ['redact', 'keep-secrets']],
    summary: 'write the branch to the leaf (or ID, or every branch) as Markdown, HTML or a pi session file',
    doc:
      'Markdown for a pull request or an issue (roles, code blocks kept, tool calls and output folded in `<details>`, long output trimmed with a note, images named, not inlined), ' +
      'one self-contained HTML file (no script, a strict Content-Security-Policy, light and dark), or JSONL that pi opens (the branch as a fork would copy it, without `parentSession`; `--all-branches`: the file as it is). ' +
      'The secret scan of `check --secrets` runs first on what would go out: a secret stops the export (exit 1, each one masked) unless `--redact` or `--keep-secrets`. ' +
      'To stdout unless `--out FILE` (a new file; refused when it exists); never to a terminal',
    details: [
      'Exit 0 when exported; 1 when a secret stopped it (each one is listed, masked, on stderr) or it cannot be written; 2 on a usage error or when stdout is a terminal.',
    ],
  },
  {
    name: 'check',
    args: ['[session]'],
    options: ['all', 'json', 'secrets', 'no-cache'],
    summary: 'audit the sessions of this folder (--all: every project; or one session); exit 1 when problems are found',
    doc:
      'integrity (unparsable, torn or glued lines, BOM, duplicate ids, orphans, cycles, v1/v2 files, forks whose parent is gone, ' +
      'missing cwd, files pi refuses, FIFOs, usage figures and dates that cannot be real, conflict copies a sync tool left) and health (size, largest entries, tool output share, compactions, files over 32 MiB that make pi slow); ' +
      'a path mapping to make (`map-path`) when most sessions of a project were recorded under a folder missing here whose end exists under your home (`/Users/ana/code/app` gone, `~/code/app` here: `/Users/ana` → your home); ' +
      `each problem gives its file and line, what pi 1.6.0 does with it and what to do. \`--json\`: ${CHECK_JSON_SHAPE}. ` +
      'Exit 0: no problem, 1: problems found. ' +
      `\`--secrets\`: the credential scan instead (secretlint's recommended rules: AWS, GitHub, Slack, npm, OpenAI, Anthropic, SendGrid, Shopify, Linear and GCP keys, private keys, passwords in URLs and connection strings) over message text, thinking, tool arguments and tool output; each finding gives its file, line, entry and kind, the secret masked. \`--json\`: ${SECRETS_JSON_SHAPE}; exit 1 when a secret is found. The findings (masked) are kept in the session catalogue, so a second scan reads only the files changed since (\`--no-cache\`: scan every file, touch no catalogue)`,
    details: [
      `--json prints ${CHECK_JSON_SHAPE.replaceAll('`', '')}. line is 1-based (0: the whole file); severity is error (pi loses, hides, refuses or rewrites something) or warning (it works, at a cost); pi says what pi 1.6.0 does with it, fix what can be done.`,
      'Exit 0 when no problem is found, 1 when one is (or the folder cannot be read), 2 on a usage error.',
      `--secrets scans for credentials instead; --json then prints ${SECRETS_JSON_SHAPE.replaceAll('`', '')}. A secret is never printed, only its masked form (a telling prefix at most, and its length); exit 1 when one is found.`,
    ],
  },
  {
    name: 'stats',
    args: ['[daily|weekly|monthly|session]'],
    options: ['all', 'json', 'since', 'until', 'timezone', 'by', 'all-periods', 'order', 'breakdown'],
    summary:
      "tokens and cost of this folder's sessions (--all: every project) per day, week, month, project, model, session and branch, as charts, ccusage-like tables or JSON",
    doc:
      'bar charts and a sparkline as wide as the terminal (`COLUMNS`, 80 when piped; no colour under `NO_COLOR` or when not a terminal): the timeline per `--by day|week|month` (the latest 10 periods, `--all-periods` every one), ' +
      'then projects, models, sessions and abandoned branches by cost (by tokens when nothing has a cost). ' +
      "`stats daily|weekly|monthly|session`: a table like `@ccusage/pi`'s instead, one row per day, ISO week, month or session (by its latest usage), with its models, input, output, cache create, cache read, total tokens and cost, then a Total row; `--breakdown` adds a row per model under each, `--order asc|desc` (default desc, as ccusage). " +
      "It fits the terminal as ccusage's does (without the models column, then with compact figures such as `1.2M`) and never cuts a figure. " +
      `\`--json\` with a table: ${TABLE_JSON_SHAPE}, ccusage's field names (plus \`totalTokens\`, and a session's \`path\` and \`title\`). ` +
      `\`--json\` without: ${STATS_JSON_SHAPE}; ` +
      "rows are `{key, usage}` (days `2026-01-05`, weeks `2026-W02`, months `2026-01`, local time or `--timezone`; projects and models by cost), a period's `models` its usage per model. " +
      `\`--since\`/\`--until\`: ${WHEN_FORMS}. ` +
      'Each usage is counted once, in the session where it was spent: entries a `/fork` or `/clone` copied (same id and timestamp) count in the session created first (`copiedEntries` in the others), and an entry written twice in one file once (`repeatedEntries`); a `usage` entry counts for the model it names. ' +
      "A value that cannot be real (a usage figure that is not a number, negative, over 100M tokens or $10,000 in one usage; a date before 2020 or over a day in the future) is left out of every figure and listed in `excluded` (a date: with its entry's whole usage; `value` a number, or the value as text) and in the charts; `check` reports each. " +
      'A branch is a leaf\'s own segment, up to the nearest branch point; see "Usage stats and ccusage" for how the figures compare with `@ccusage/pi`',
    details: [
      `WHEN is ${WHEN_FORMS}. "m" is minutes, as the picker's age column writes them; a month is "mo".`,
      '--until includes a day or month given whole (--until 2026-03-01 ends at midnight after it, as ccusage reads it); a date-time or an age is where it stops. Days, weeks and months, and these dates, are in --timezone (an IANA name; default: local time).',
      "stats daily, weekly, monthly and session print a table like @ccusage/pi's: input, output, cache create, cache read, total tokens and cost per row, then a Total row; --breakdown adds a row per model, --order asc|desc sorts them (default desc). Narrow, the models column goes first, then figures are compact (1.2M); a figure is never cut.",
      `--json with a table prints ${TABLE_JSON_SHAPE.replaceAll('`', '')}; without one ${STATS_JSON_SHAPE.replaceAll('`', '')}.`,
      'Usage errors (a bad date, zone, period or order, --breakdown or --order without a table, --by or --all-periods with one) exit 2.',
    ],
  },
  {
    name: 'map-path',
    args: ['[from]', '[to]'],
    options: ['host'],
    summary: 'map a path prefix of another machine to this one (no arguments: list the mappings)',
    doc:
      "paths a session recorded on another machine (a store synced from a Mac: `/Users/ana/…`) read as this machine's: `map-path /Users/ana /home/ana [--host ana-mac]` adds the mapping to `<agentDir>/pi-sessions.json` (or replaces the one with that FROM; the file is rewritten atomically, its other keys kept), `map-path` alone lists them. " +
      'The longest matching FROM wins, and only whole folders match. The picker applies it to "this folder" (and sub-folders), the threaded nesting of forks and resume (pi starts in the mapped folder); with `--host`, the preview says "Written on NAME" and `host:NAME` finds them',
    details: [
      'FROM and TO must be absolute. Without --host a mapping names no machine. The file is <agentDir>/pi-sessions.json: {"pathMap": [{"from", "to", "host"}]}; a broken file is reported in one line and left as it is.',
      'list, labels, stats, check and tree --json print the paths as the files record them.',
    ],
  },
  {
    name: 'help',
    args: ['[command]'],
    options: [],
    summary: 'show the help of pi-sessions or of one command',
    doc: "this help, or one command's (`pi-sessions <command> --help` too)",
  },
];

export const SESSION_ARG_NOTE = '<session> is a path, a session id, or a unique id prefix.';
export const EXIT_CODES =
  'Exit codes: 0 success, 1 failure, 2 usage error or no terminal, 130 interrupted (Ctrl+C), 128 + N when ended by signal N (SIGTERM 143, SIGHUP 129, SIGQUIT 131; the terminal is restored first).';
/** The environment variables pi-sessions reads, and what for. */
export const ENVIRONMENT: readonly (readonly [names: readonly string[], meaning: string])[] = [
  [['NO_COLOR', 'FORCE_COLOR'], 'colour: FORCE_COLOR=0..3 wins over NO_COLOR, --no-color over both'],
  [['PI_SESSIONS_DEBUG'], 'any value but empty or 0 adds the stack to an unexpected error'],
  [['PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR'], 'where sessions are, as for pi'],
  [
    ['PI_TUI_ESC_TIMEOUT'],
    'ms a lone Esc waits for the rest of a key, as pi reads it (default 50, 100 over ssh); a key begun (ESC [) waits at least 150',
  ],
  [['XDG_CACHE_HOME'], 'where the session catalogue is kept'],
  [['XDG_STATE_HOME'], 'where the journal of our changes is kept (pi-sessions/journal.jsonl; default ~/.local/state)'],
];

/** The environment as one markdown sentence. */
export function environmentMarkdown(): string {
  return `Environment: ${ENVIRONMENT.map(([names, meaning]) => `${names.map((name) => `\`${name}\``).join(', ')} (${meaning})`).join('; ')}.`;
}

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** Every option `command` accepts (its own and the global ones). */
export function acceptedOptions(command: CommandSpec): Set<OptionName> {
  return new Set<OptionName>([...command.options.flat(), ...GLOBAL_OPTIONS]);
}

/** How many positional arguments `command` takes. */
export function argumentCounts(command: CommandSpec): { min: number; max: number } {
  const min = command.args.filter((a) => a.startsWith('<')).length;
  return { min, max: command.args.some((a) => a.endsWith('...')) ? Number.POSITIVE_INFINITY : command.args.length };
}

/** `--cwd DIR`, `--json`. */
export function optionSynopsis(name: OptionName): string {
  const spec: OptionSpec = OPTIONS[name];
  return `--${name}${spec.value ? ` ${spec.value}` : ''}`;
}

/** `list [--all | --tree] [--json] [--no-cache]` (without the program name). */
export function commandSynopsis(command: CommandSpec): string {
  const options = command.options
    .filter((o) => o !== 'version')
    .map((o) => {
      const names = typeof o === 'string' ? [o] : o;
      const text = names.map(optionSynopsis).join(' | ');
      return names.length === 1 && command.required?.includes(names[0]!) ? text : `[${text}]`;
    });
  return [command.name, ...command.args, ...options].filter((part) => part !== '').join(' ');
}
