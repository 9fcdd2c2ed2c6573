/**
 * Session discovery in a folder a sync tool is writing to: its temp files (some ending in
 * `.jsonl`) are never candidates, in a project folder of the sessions root or a flat custom
 * folder; sessions and conflict copies are.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessionFiles, resolveLocations } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

const NAME = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';
const SESSIONS = [
  `${NAME}.jsonl`,
  `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`,
  `${NAME} (conflicted copy).jsonl`,
];
const TEMPS = [
  `.syncthing.${NAME}.jsonl.tmp`,
  `~syncthing~${NAME}.jsonl`,
  `~syncthing~${NAME}.jsonl.tmp`,
  `${NAME}.jsonl.partial`,
  `.${NAME}.jsonl.123.abcdef.tmp`,
  `.~${NAME}.jsonl`,
];

function fill(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const text = new SessionBuilder().text();
  for (const name of SESSIONS) writeFileSync(join(dir, name), text);
  for (const name of TEMPS) writeFileSync(join(dir, name), text.slice(0, 30));
}

describe('discoverSessionFiles with a sync in progress', () => {
  it('skips the temp files in a project folder of the sessions root', () => {
    const agent = tempDir();
    fill(join(agent, 'sessions', '--home-ana-app--'));
    const locations = resolveLocations({
      cwd: '/home/ana/app',
      env: { PI_CODING_AGENT_DIR: agent },
      home: '/home/ana',
    });
    expect(
      discoverSessionFiles(locations, 'all')
        .files.map((p) => basename(p))
        .sort(),
    ).toEqual([...SESSIONS].sort());
  });

  it('skips them in a flat custom sessions folder', () => {
    const dir = tempDir();
    fill(dir);
    const locations = resolveLocations({ sessionDir: dir, env: {}, home: '/home/ana' });
    expect(
      discoverSessionFiles(locations, 'cwd')
        .files.map((p) => basename(p))
        .sort(),
    ).toEqual([...SESSIONS].sort());
  });
});
