/**
 * The `--json` contract of every command, through the built CLI on a session whose name, label and
 * messages hold a C1 control (U+009B, a CSI on its own) and a bidi override (U+202E): each output
 * is one object with `version` first (1), carries those characters only as `\uXXXX` escapes (the
 * value parses back unchanged), and every top-level field is documented in the README.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeCwd } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

const HOSTILE = 'evil\u009b31m\u202eoverride';
/** What a terminal acts on, or shows reordered: C1 controls, bidi controls, DEL. */
const RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

function store(): { env: Record<string, string>; path: string; entry: string } {
  const root = tempDir('pi-sessions-json-');
  const agent = join(root, 'agent');
  const cwd = '/home/test/json';
  const builder = new SessionBuilder({ cwd });
  const prompt = builder.user(`first ${HOSTILE}`);
  builder.assistant(`reply ${HOSTILE}`);
  builder.label(prompt, `label ${HOSTILE}`);
  builder.name(`name ${HOSTILE}`);
  const second = builder.user('second prompt');
  builder.assistant('second reply');
  // A branch off the first reply, so slim has something to leave out.
  builder.branchFrom(prompt);
  builder.assistant('another reply');
  const path = builder.writeTo(join(agent, 'sessions', encodeCwd(cwd), '2026-01-05T09-00-00-000Z_json.jsonl'));
  return {
    env: { PI_CODING_AGENT_DIR: agent, XDG_DATA_HOME: join(root, 'xdg') },
    path,
    entry: second,
  };
}

/** The README's words for a command's JSON: its bullet under "JSON output" and its command-table row. */
function documented(command: string): string {
  const section = README.slice(README.indexOf('### JSON output'));
  const bullet = new RegExp(`^- \`${command} --json\`:[\\s\\S]*?(?=^- |^#|(?![\\s\\S]))`, 'm').exec(section)?.[0] ?? '';
  const row = README.split('\n').find((line) => line.startsWith(`| \`pi-sessions ${command}`)) ?? '';
  return `${bullet}\n${row}`;
}

describe('every --json output', () => {
  const s = store();
  const runs: [string, string[]][] = [
    ['list', ['list', '--all', '--json']],
    ['labels', ['labels', '--all', '--json']],
    ['tree', ['tree', s.path, '--json']],
    ['context', ['context', s.path, '--json']],
    ['check', ['check', s.path, '--json']],
    ['stats', ['stats', '--all', '--json']],
    ['slim', ['slim', s.path, '--json']],
    ['fork', ['fork', s.path, s.entry, '--json']],
    ['slim', ['slim', s.path, '--yes', '--json']],
  ];

  it.each(runs)(
    '%s: an object with version 1 first, no raw C1 or bidi character, every field in the README',
    (command, argv) => {
      const run = runCli(argv, { env: s.env, cwd: '/' });
      expect([0, 1]).toContain(run.code);
      expect(run.stdout).not.toMatch(RAW_UNSAFE);
      const json = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(Array.isArray(json)).toBe(false);
      expect(Object.keys(json)[0]).toBe('version');
      expect(json['version']).toBe(1);
      const docs = documented(command);
      for (const field of Object.keys(json))
        expect(docs, `${command} --json: "${field}" is not in the README`).toMatch(new RegExp(`\\b${field}\\b`));
    },
  );

  it('writes the hostile text as escapes that parse back to the same characters', () => {
    const fresh = store();
    for (const argv of [
      ['list', '--all', '--json'],
      ['context', fresh.path, '--json'],
    ]) {
      const run = runCli(argv, { env: fresh.env, cwd: '/' });
      expect(run.stdout).toContain('\\u009b');
      expect(run.stdout).toContain('\\u202e');
      expect(JSON.stringify(JSON.parse(run.stdout))).toContain(HOSTILE);
    }
  });
});
