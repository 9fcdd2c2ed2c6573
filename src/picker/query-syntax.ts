/**
 * The search language as people read it: one table for the picker's `?` help and the README's
 * query table (src/tools/docs/query-table.ts), so the two cannot disagree. The parser is
 * query-language.ts; test/picker/query-syntax.test.ts parses every example here.
 */
import { OUTPUT_PER_CALL, OUTPUT_PER_SESSION } from '../store/index.js';

export interface SyntaxRow {
  /** What to type (examples are parsed by the test). */
  syntax: string;
  meaning: string;
}

export const QUERY_SYNTAX: readonly SyntaxRow[] = [
  {
    syntax: 'word',
    meaning:
      'name, folder, id, any message text or branch or compaction summary (fuzzy on name and folder; abbreviations like sqlite idx)',
  },
  { syntax: '"some phrase"', meaning: 'that text exactly (case and spacing ignored)' },
  { syntax: "'word", meaning: 'exact: only where the word appears as typed, nothing fuzzy' },
  { syntax: '^word', meaning: 'starts with: the title, the folder path or its last folder' },
  { syntax: 'word$', meaning: 'ends with: the title, the folder path or its last folder (^word$: is exactly)' },
  { syntax: '!word', meaning: 'not: sessions without the word (also !tool:bash, !is:named, …)' },
  { syntax: 'a|b', meaning: 'either: fix|bug, tool:edit|tool:write' },
  {
    syntax: 're:regex',
    meaning: 'a regex in RE2 syntax, case-insensitive; takes the rest of the line (no lookahead or backreferences)',
  },
  { syntax: 'cwd:x name:x', meaning: 'the folder or the name contains x' },
  { syntax: 'model:x label:x', meaning: 'a model that answered, or a label, contains x' },
  {
    syntax: 'host:x',
    meaning: "the machine that wrote it, where known: a conflict copy's device, a path mapping's host",
  },
  { syntax: 'tool:x', meaning: 'a tool whose name contains x was called' },
  { syntax: 'file:x', meaning: 'a tool call touched a path containing x (read, edit, write paths; bash commands)' },
  {
    syntax: 'out:x',
    meaning: `tool output contains x (the first ${OUTPUT_PER_CALL} bytes of each output, up to ${OUTPUT_PER_SESSION / 1024} KB per session)`,
  },
  { syntax: 'after:2w before:2026-01-05', meaning: 'last activity at/after or before a date or an age (12h, 30d, 2w)' },
  { syntax: 'size:>10mb', meaning: 'file size (>, <, >=, <=; no operator means >=)' },
  { syntax: 'is:named is:empty', meaning: 'has a name; got no reply' },
  { syntax: 'is:fork is:live', meaning: 'forked from another session; written in the last 5 minutes' },
  {
    syntax: 'has:secret',
    meaning:
      'a credential the secret scan finds (check --secrets); the scope is scanned once, then kept in the catalogue',
  },
  { syntax: 'in:abandoned', meaning: 'a text hit on a branch pi is not on; alone: sessions with text there' },
  {
    syntax: 'in:active in:compacted',
    meaning: 'a text hit on the path pi resumes; before its latest compaction (the model no longer sees it)',
  },
];

/** The `?` help's section (HelpOverlay's `extra`): the table, then the note as its last row. */
export const SEARCH_HELP: readonly { title: string; rows: readonly { keys: string; description: string }[] }[] = [
  { title: 'Search', rows: [...QUERY_SYNTAX.map((row) => ({ keys: row.syntax, description: row.meaning }))] },
];

/** Every token is ANDed; this line says so under the table. */
export const QUERY_SYNTAX_NOTE =
  'Tokens are separated by spaces and all must match; quote a token to take its characters literally ("a|b", "!x").';
