/**
 * Writes that fail for real: a full disk (a tiny tmpfs
 * in a private mount namespace) and a file-size limit (`ulimit -f`), through the built CLI. On
 * every failure the original is byte-identical (pi 1.6.0 still loads it unchanged), nothing is
 * left behind, the message says what happened and the exit code is 1.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { migratedText } from '../../src/store/write/migrate-file.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import {
  asOtherUser,
  onTinyDisk,
  otherUserUnavailable,
  tinyDiskUnavailable,
  ulimitBlockBytes,
  underFileSizeLimit,
} from '../helpers/tiny-disk.js';
import { v1Text } from '../helpers/v1.js';

const PAGE = 4096;

/** A v3 session of exactly `bytes` bytes (a user message padded to fit). */
function sessionOfSize(bytes: number): { text: string; leaf: string } {
  const build = (pad: number): SessionBuilder => {
    const b = new SessionBuilder();
    b.user(`question ${'x'.repeat(pad)}`);
    b.assistant('answer');
    return b;
  };
  const base = build(0).text().length;
  if (base > bytes) throw new Error(`a session cannot be as small as ${bytes} bytes`);
  const b = build(bytes - base);
  const text = b.text();
  expect(text.length).toBe(bytes);
  return { text, leaf: b.leaf! };
}

/** Fills `dir` (a setup folder) with `name` holding `text`. */
function setupWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function expectPiLoadsUnnamed(text: string): Promise<void> {
  const path = join(tempDir(), 's.jsonl');
  writeFileSync(path, text);
  const pi = await openWithPi(path);
  expect(pi.changedOnOpen).toBe(false);
  expect(pi.manager.getSessionName()).toBeUndefined();
}

const noTinyDisk = tinyDiskUnavailable();

describe.skipIf(noTinyDisk !== undefined)(
  `on a full disk (tiny tmpfs)${noTinyDisk ? `: skipped, ${noTinyDisk}` : ''}`,
  () => {
    it('rename and label of a v3 file: no torn line, the file byte-identical, exit 1, no "Renamed to"', async () => {
      // 20 bytes of room left in the file's last page: the append is cut short there, for real.
      const { text, leaf } = sessionOfSize(2 * PAGE - 20);
      const run = onTinyDisk(
        64,
        setupWith({ 's.jsonl': text }),
        `fill; run rename "$DISK/s.jsonl" "new name"; run label "$DISK/s.jsonl" ${leaf} "a label"`,
      );
      for (const r of run.runs) {
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(
          /^pi-sessions: .*s\.jsonl: write failed: no space left on device; the file is unchanged\n$/,
        );
      }
      expect(run.runs).toHaveLength(2);
      expect(run.files.get('s.jsonl')!.bytes.toString()).toBe(text);
      await expectPiLoadsUnnamed(text);
    });

    it('rename of a v1 file: the migration never replaces the original; its temp file is removed', async () => {
      const text = v1Text(20);
      const run = onTinyDisk(64, setupWith({ 'old.jsonl': text }), 'fill; run rename "$DISK/old.jsonl" "new name"');
      expect(run.runs[0]).toMatchObject({ code: 1, stdout: '' });
      expect(run.runs[0]!.stderr).toMatch(/old\.jsonl: cannot migrate: no space left on device; the file is unchanged/);
      expect([...run.files.keys()]).toEqual(['old.jsonl']);
      expect(run.files.get('old.jsonl')!.bytes.toString()).toBe(text);
    });

    it('the catalogue: the old one stays intact, private (folder tightened to 0700, file 0600), with no temp file, and the app still lists', () => {
      const session = (n: number): string => {
        const b = new SessionBuilder({ id: `019b0000-0000-7000-8000-00000000000${n}`, cwd: '/home/test/p' });
        b.user(`question ${n} ${'y'.repeat(3000)}`);
        b.assistant('answer');
        return b.text();
      };
      const setup = setupWith({ 'agent/sessions/--home-test-p--/one.jsonl': session(1) });
      const extra = setupWith({ 'two.jsonl': session(2), 'three.jsonl': session(3) });
      const cache = 'cache/pi-sessions';
      const run = onTinyDisk(
        96,
        setup,
        `export XDG_CACHE_HOME="$DISK/cache" PI_CODING_AGENT_DIR="$DISK/agent"
mkdir -p "$XDG_CACHE_HOME/pi-sessions" && chmod 755 "$XDG_CACHE_HOME" "$XDG_CACHE_HOME/pi-sessions"
run list --all
mkdir -p "$OUT/keep" && cp -a "$DISK/${cache}/." "$OUT/keep/"
cp "$EXTRA/"*.jsonl "$DISK/agent/sessions/--home-test-p--/"
fill
run list --all`,
        { EXTRA: extra },
      );
      expect(run.runs.map((r) => [r.code, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ]);
      expect(run.runs[0]!.stdout).toMatch(/question 1/);
      for (const n of [1, 2, 3]) expect(run.runs[1]!.stdout).toMatch(new RegExp(`question ${n}`));
      const catalogue = [...run.files].filter(([name]) => name.startsWith(`${cache}/`));
      expect(catalogue.map(([name]) => name)).toEqual([...run.kept.keys()].map((name) => `${cache}/${name}`));
      expect(catalogue).toHaveLength(1);
      const [name, file] = catalogue[0]!;
      expect(file.bytes.equals(run.kept.get(name.slice(cache.length + 1))!.bytes)).toBe(true);
      expect(file.mode).toBe(0o600);
      // A catalogue folder left readable by others (an older version, a user's mkdir) is tightened;
      // the cache folder around it is not ours to change.
      expect(run.dirs.get(cache)).toBe(0o700);
      expect(run.dirs.get('cache')).toBe(0o755);
    });

    it('crash-left temp files are cleaned on the next write to that folder, which then succeeds and loads in pi', async () => {
      const { text } = sessionOfSize(2 * PAGE);
      // A migration killed mid-write left this (its pid is long gone). The disk is full and the file
      // fills its pages exactly: the rename has room only once the leftover is gone.
      const run = onTinyDisk(
        64,
        setupWith({ 's.jsonl': text, '.s.jsonl.999999999.0a1b2c.tmp': 'x'.repeat(30_000) }),
        'fill; run rename "$DISK/s.jsonl" "after a crash"',
      );
      expect(run.runs[0]).toMatchObject({ code: 0, stderr: '' });
      expect(run.runs[0]!.stdout).toMatch(/^Renamed to "after a crash"/);
      expect([...run.files.keys()]).toEqual(['s.jsonl']);
      const after = run.files.get('s.jsonl')!.bytes;
      expect(after.subarray(0, text.length).toString()).toBe(text);
      const path = join(tempDir(), 's.jsonl');
      writeFileSync(path, after);
      const pi = await openWithPi(path);
      expect(pi.changedOnOpen).toBe(false);
      expect(pi.manager.getSessionName()).toBe('after a crash');
    });

    it('a full disk under the journal: the rename is made, the journal failure is one warning line, exit 0', async () => {
      const { text } = sessionOfSize(2000);
      const sessions = tempDir();
      const path = join(sessions, 's.jsonl');
      writeFileSync(path, text);
      // The session is on the normal disk; only the journal's folder is on the full one.
      const run = onTinyDisk(
        64,
        tempDir(),
        'export XDG_STATE_HOME="$DISK/state"; fill; run rename "$SESSION" "named anyway"',
        { SESSION: path },
      );
      expect(run.runs[0]!.code).toBe(0);
      expect(run.runs[0]!.stdout).toMatch(/^Renamed to "named anyway" \(entry [0-9a-f]{8}\)\.\n$/);
      expect(run.runs[0]!.stderr).toMatch(
        /^pi-sessions: warning: the change was made but not recorded in the journal \(.*no space left on device.*\), so it cannot be undone with pi-sessions undo\n$/,
      );
      expect((await openWithPi(path)).manager.getSessionName()).toBe('named anyway');
      // Nothing half-written left in the journal, and no half-made lock for the next change to wait on.
      expect(run.files.get('state/pi-sessions/journal.jsonl')?.bytes.length ?? 0).toBe(0);
      expect(run.files.has('state/pi-sessions/journal.lock')).toBe(false);
    });
  },
);

describe('under a file-size limit (ulimit -f)', () => {
  let limit = 0;
  beforeAll(() => {
    limit = 8 * ulimitBlockBytes();
  });

  it('fork: exit 1, no file created, nothing printed on stdout', () => {
    const dir = tempDir();
    const { text } = sessionOfSize(limit + 2000);
    const path = join(dir, 's.jsonl');
    writeFileSync(path, text);
    const r = underFileSizeLimit(limit, ['fork', path]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/: file too large for the file-size limit; nothing was created\n$/);
    expect(readdirSync(dir)).toEqual(['s.jsonl']);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('rename of a v3 file cut short at the limit: rolled back to the byte', async () => {
    const dir = tempDir();
    const { text } = sessionOfSize(limit - 20);
    const path = join(dir, 's.jsonl');
    writeFileSync(path, text);
    const r = underFileSizeLimit(limit, ['rename', path, 'new name']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/write failed: file too large for the file-size limit; the file is unchanged\n$/);
    expect(readFileSync(path, 'utf8')).toBe(text);
    await expectPiLoadsUnnamed(text);
  });

  it('rename of a v1 file whose migration outgrows the limit: original kept, no temp file', () => {
    const dir = tempDir();
    // Under the limit as it is; over it once every line gains its id and parentId.
    const text = v1Text(13);
    expect(text.length).toBeLessThan(limit);
    const path = join(dir, 'old.jsonl');
    writeFileSync(path, text);
    const r = underFileSizeLimit(limit, ['rename', path, 'new name']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/cannot migrate: file too large for the file-size limit; the file is unchanged\n$/);
    expect(readdirSync(dir)).toEqual(['old.jsonl']);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('rename of a v1 file whose migration fits but not with the new name: migration and name land together or not at all', () => {
    const dir = tempDir();
    // The migrated text alone ends 60 bytes under the limit; the session_info line does not fit.
    const base = migratedText(Buffer.from(v1Text(10)), 'x').length;
    const text = v1Text(10, limit - 60 - base);
    expect(migratedText(Buffer.from(text), 'x').length).toBe(limit - 60);
    const path = join(dir, 'old.jsonl');
    writeFileSync(path, text);
    const r = underFileSizeLimit(limit, ['rename', path, 'new name']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/cannot migrate: file too large for the file-size limit; the file is unchanged\n$/);
    expect(readdirSync(dir)).toEqual(['old.jsonl']);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

const noOtherUser = otherUserUnavailable();

describe.skipIf(noOtherUser !== undefined)(
  `as another user (setpriv)${noOtherUser ? `: skipped, ${noOtherUser}` : ''}`,
  () => {
    it('a session the user may not write: rename, label and fork fail with one line, exit 1, nothing changed or created', () => {
      const dir = tempDir();
      chmodSync(dir, 0o755);
      const home = join(dir, 'home');
      mkdirSync(home);
      chownSync(home, 65534, 65534);
      const { text, leaf } = sessionOfSize(2000);
      const path = join(dir, 's.jsonl');
      writeFileSync(path, text, { mode: 0o644 });
      for (const args of [
        ['rename', path, 'x'],
        ['label', path, leaf, 'x'],
      ]) {
        const r = asOtherUser(args, home);
        expect(r).toMatchObject({
          code: 1,
          stdout: '',
          stderr: `pi-sessions: ${path}: cannot write: permission denied\n`,
        });
      }
      const fork = asOtherUser(['fork', path], home);
      expect(fork).toMatchObject({ code: 1, stdout: '' });
      expect(fork.stderr).toMatch(/^pi-sessions: cannot create .*\.jsonl: permission denied\n$/);
      expect(readdirSync(dir).sort()).toEqual(['home', 's.jsonl']);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });

    it('a writable v1 file in a folder the user may not write: the migration says so and changes nothing', () => {
      const dir = tempDir();
      chmodSync(dir, 0o755);
      const home = join(dir, 'home');
      mkdirSync(home);
      chownSync(home, 65534, 65534);
      const text = v1Text(3);
      const path = join(dir, 'old.jsonl');
      writeFileSync(path, text);
      chmodSync(path, 0o666);
      const r = asOtherUser(['rename', path, 'x'], home);
      expect(r).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `pi-sessions: ${path}: cannot migrate: creating a temp file: permission denied; the file is unchanged\n`,
      });
      expect(readdirSync(dir).sort()).toEqual(['home', 'old.jsonl']);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  },
);
