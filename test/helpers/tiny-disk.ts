/**
 * Real write failures for tests: a tiny tmpfs mounted inside a private mount namespace
 * (`unshare -rm`, no effect on the machine) to fill a disk for real, `ulimit -f` in a child shell
 * for a file-size limit, and `setpriv` to another uid for permissions root would ignore. All run
 * the built CLI as a user would.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from './cli.js';

/** Why a tiny tmpfs cannot be mounted here (undefined: it can). */
export function tinyDiskUnavailable(): string | undefined {
  const probe = mkdtempSync(join(tmpdir(), 'pi-sessions-tinydisk-probe-'));
  try {
    const result = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs "${probe}"`], {
      encoding: 'utf8',
    });
    if (result.error) return `unshare is not available (${result.error.message})`;
    if (result.status !== 0)
      return `cannot mount a tmpfs in a user mount namespace: ${result.stderr.trim() || `exit ${result.status}`}`;
    return undefined;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

export interface DiskRun {
  /** Exit code, stdout and stderr of each `$CLI` call the script made, in order (`run` files). */
  runs: { code: number; stdout: string; stderr: string }[];
  /** The disk's files after the script, copied out before the mount goes away (`.filler` excluded). */
  files: Map<string, { bytes: Buffer; mode: number }>;
  /** Modes of the disk's folders, by relative path. */
  dirs: Map<string, number>;
  /** Files the script copied to \`$OUT/keep\` (snapshots taken between two runs). */
  kept: DiskRun['files'];
}

/**
 * Mounts a `sizeKb` tmpfs at `$DISK`, copies `setup` into it (modes kept), then runs `script` with
 * a shell function `run ARGS…` that runs the CLI and records its outcome, and `fill` that fills
 * the disk to the last byte. The work folder is removed afterwards.
 */
export function onTinyDisk(sizeKb: number, setup: string, script: string, env: NodeJS.ProcessEnv = {}): DiskRun {
  const work = mkdtempSync(join(tmpdir(), 'pi-sessions-tinydisk-'));
  try {
    const disk = join(work, 'disk');
    const out = join(work, 'out');
    mkdirSync(disk);
    mkdirSync(join(out, 'files'), { recursive: true });
    const shell = `
set -e
mount -t tmpfs -o size=${sizeKb}k tmpfs "$DISK"
cp -a "$SETUP/." "$DISK/"
n=0
run() {
  n=$((n + 1))
  set +e
  "$NODE" "$CLI" "$@" > "$OUT/$n.stdout" 2> "$OUT/$n.stderr"
  echo $? > "$OUT/$n.code"
  set -e
}
fill() { head -c 100000000 /dev/zero > "$DISK/.filler" 2>/dev/null || true; }
${script}
rm -f "$DISK/.filler"
cp -a "$DISK/." "$OUT/files/"
`;
    const result = spawnSync('unshare', ['-rm', 'sh', '-c', shell], {
      env: { ...process.env, ...env, DISK: disk, SETUP: setup, OUT: out, NODE: process.execPath, CLI },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (result.status !== 0) throw new Error(`tiny-disk script failed (exit ${result.status}): ${result.stderr}`);
    const runs: DiskRun['runs'] = [];
    for (let i = 1; ; i++) {
      let code: string;
      try {
        code = readFileSync(join(out, `${i}.code`), 'utf8');
      } catch {
        break;
      }
      runs.push({
        code: Number(code.trim()),
        stdout: readFileSync(join(out, `${i}.stdout`), 'utf8'),
        stderr: readFileSync(join(out, `${i}.stderr`), 'utf8'),
      });
    }
    const files: DiskRun['files'] = new Map();
    const dirs: DiskRun['dirs'] = new Map();
    const walk = (dir: string, prefix: string, into = files): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          dirs.set(`${prefix}${entry.name}`, statSync(path).mode & 0o777);
          walk(path, `${prefix}${entry.name}/`, into);
        } else if (entry.isFile())
          into.set(`${prefix}${entry.name}`, { bytes: readFileSync(path), mode: statSync(path).mode & 0o777 });
      }
    };
    walk(join(out, 'files'), '');
    const kept: DiskRun['files'] = new Map();
    if (existsSync(join(out, 'keep'))) walk(join(out, 'keep'), '', kept);
    return { runs, files, dirs, kept };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let blockBytes: number | undefined;

/** The unit of `ulimit -f` in this machine's sh (POSIX and dash: 512 bytes; bash: 1024), measured once. */
export function ulimitBlockBytes(): number {
  if (blockBytes === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'pi-sessions-ulimit-probe-'));
    try {
      const file = join(dir, 'probe');
      spawnSync('sh', ['-c', 'ulimit -f 1; head -c 4096 /dev/zero > "$F"'], { env: { ...process.env, F: file } });
      blockBytes = statSync(file).size;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return blockBytes;
}

/**
 * Runs the CLI under `ulimit -f` so that files may grow to `limitBytes` (a multiple of the
 * shell's block). Node ignores SIGXFSZ, so a write past the limit is short, then fails with EFBIG.
 */
export function underFileSizeLimit(
  limitBytes: number,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { code: number | null; stdout: string; stderr: string } {
  const block = ulimitBlockBytes();
  if (limitBytes % block !== 0)
    throw new Error(`limit ${limitBytes} is not a multiple of the ${block}-byte ulimit block`);
  const result = spawnSync('sh', ['-c', `ulimit -f ${limitBytes / block} && exec "$NODE" "$CLI" "$@"`, 'sh', ...args], {
    env: { ...process.env, ...env, NODE: process.execPath, CLI },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The uid the permission tests run as (nobody); they need root to switch to it. */
export const OTHER_UID = 65534;

/** Why the CLI cannot be run as another user here (undefined: it can). */
export function otherUserUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not running as root, so setpriv cannot switch to another uid';
  const id = String(OTHER_UID);
  const node = spawnSync('setpriv', ['--reuid', id, '--regid', id, '--clear-groups', process.execPath, '-e', ''], {
    encoding: 'utf8',
  });
  if (node.error) return `setpriv is not available (${node.error.message})`;
  if (node.status !== 0) return `setpriv cannot run node as uid ${OTHER_UID}: ${node.stderr.trim()}`;
  // A checkout inside a private folder (mktemp -d makes it 0700) cannot be loaded by that user.
  const cli = spawnSync(
    'setpriv',
    ['--reuid', id, '--regid', id, '--clear-groups', process.execPath, CLI, '--version'],
    { encoding: 'utf8' },
  );
  if (cli.status !== 0)
    return `uid ${OTHER_UID} cannot run the CLI from this checkout (a private parent folder?): ${cli.stderr.trim().split('\n')[0]}`;
  return undefined;
}

/** Runs the CLI as uid/gid `OTHER_UID`, with HOME, the cache and the journal in `home` (which that user must be able to write). */
export function asOtherUser(args: string[], home: string): { code: number | null; stdout: string; stderr: string } {
  const id = String(OTHER_UID);
  const result = spawnSync(
    'setpriv',
    ['--reuid', id, '--regid', id, '--clear-groups', process.execPath, CLI, ...args],
    {
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, 'cache'), XDG_STATE_HOME: join(home, 'state') },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
