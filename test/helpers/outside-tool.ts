/**
 * Outside tools the tests compare with (the Node 22 that pi's TUI needs, `@ccusage/pi`), installed
 * from the npm registry into a cache folder under the machine's temp dir: never the repository,
 * never a dependency of the project, and never whatever happens to be installed on the machine,
 * so every run (CI's included) compares with the same pinned version. A run that cannot install
 * the tool (offline without the cache, another platform) gets the reason to skip with.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OutsideTool {
  /** An exact npm spec, `name@version`: the comparison is with that version and no other. */
  spec: string;
  /** The cache folder's name under the machine's temp dir. */
  folder: string;
  /** The program's path inside `node_modules`. */
  bin: string[];
  /** Arguments that make the program print its version, and the prefix that version must have. */
  versionArgs: string[];
  versionPrefix: string;
}

export type Found = { path: string } | { skip: string };

const firstLine = (text: string): string =>
  text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? 'no output';

/** The tool's program, installed into the cache when absent or of another version; or why not. */
export function installOutsideTool(tool: OutsideTool): Found {
  // Outside the run's own temp dir (test/global-setup.ts checks that one is left empty): a cache outlives runs.
  const cache = join(process.env['PI_SESSIONS_TEST_CACHE_TMPDIR'] ?? tmpdir(), tool.folder);
  const bin = join(cache, 'node_modules', ...tool.bin);
  const version = (): string | undefined => {
    try {
      return execFileSync(bin, tool.versionArgs, {
        encoding: 'utf8',
        timeout: 30_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim();
    } catch {
      return undefined;
    }
  };
  const wanted = (v: string | undefined): boolean => v?.startsWith(tool.versionPrefix) === true;
  if (!existsSync(bin) || !wanted(version())) {
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          cache,
          '--no-save',
          '--no-package-lock',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          tool.spec,
        ],
        { stdio: 'pipe', timeout: 300_000 },
      );
    } catch (error) {
      return {
        skip: `\`npm install --prefix ${cache} ${tool.spec}\` failed: ${firstLine(String((error as { stderr?: unknown }).stderr ?? error))}`,
      };
    }
  }
  const got = version();
  if (got === undefined) return { skip: `${bin} (${tool.spec}) does not run` };
  return wanted(got) ? { path: bin } : { skip: `${bin} is ${firstLine(got)}, not ${tool.spec}` };
}
