/**
 * Applies the unified diffs in patches/ (patch-package's format and names: `<package>+<version>.patch`)
 * to module sources in memory, for the bundler (scripts/bundle.mjs) and the tests. node_modules is
 * never written: a fresh `npm install` needs no install script, and the patched code exists only
 * in the bundle. A hunk whose context does not match (another version of the package) throws.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PATCHES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'patches');

/**
 * `{ 'node_modules/ink/build/output.js': [hunks…] }` of every patch file. A hunk is exactly the
 * lines its `@@ -a,b +c,d @@` header counts; every line outside a hunk that is not a file header
 * (`diff`, `---`, `+++`) is a comment, as it is for `git apply` and `patch`: the patch files open
 * with a paragraph on why each hunk exists, and such a paragraph can never become part of a hunk.
 */
export function loadPatches(dir = PATCHES_DIR) {
  const byFile = new Map();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.patch'))
    .sort()) {
    // The file's last newline ends its last line; it does not start an empty one.
    const lines = readFileSync(join(dir, name), 'utf8').replace(/\n$/, '').split('\n');
    let file;
    let hunk;
    // Lines of the current hunk still to come, on its old side and its new side.
    let oldLeft = 0;
    let newLeft = 0;
    for (const line of lines) {
      if (oldLeft > 0 || newLeft > 0) {
        if (line.startsWith('\\')) continue; // "\ No newline at end of file": the files patched here all end with one.
        const kind = line[0];
        if (kind !== ' ' && kind !== '-' && kind !== '+') throw new Error(`${name}: hunk ends early: ${line}`);
        const text = line.slice(1);
        if (kind !== '+') {
          hunk.remove.push(text);
          oldLeft--;
        }
        if (kind !== '-') {
          hunk.add.push(text);
          newLeft--;
        }
        if (oldLeft < 0 || newLeft < 0) throw new Error(`${name}: hunk longer than its header says: ${line}`);
      } else if (line.startsWith('diff ')) {
        file = undefined;
      } else if (line.startsWith('+++ b/')) {
        file = line.slice('+++ b/'.length).trim();
        byFile.set(file, { patch: name, hunks: [] });
      } else if (line.startsWith('@@') && file !== undefined) {
        const match = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
        if (!match) throw new Error(`${name}: bad hunk header: ${line}`);
        hunk = { oldStart: Number(match[1]), remove: [], add: [] };
        oldLeft = match[2] === undefined ? 1 : Number(match[2]);
        newLeft = match[3] === undefined ? 1 : Number(match[3]);
        byFile.get(file).hunks.push(hunk);
      }
    }
    if (oldLeft > 0 || newLeft > 0) throw new Error(`${name}: the last hunk is cut short`);
  }
  return byFile;
}

/** `source` with `hunks` applied; throws naming the patch when a hunk's context is not there. */
export function applyHunks(source, { patch, hunks }, file) {
  const lines = source.split('\n');
  let shift = 0;
  for (const hunk of hunks) {
    const at = hunk.oldStart - 1 + shift;
    const found = hunk.remove.every((text, i) => lines[at + i] === text);
    if (!found)
      throw new Error(`${patch} does not apply to ${file} at line ${hunk.oldStart}: is another version installed?`);
    lines.splice(at, hunk.remove.length, ...hunk.add);
    shift += hunk.add.length - hunk.remove.length;
  }
  return lines.join('\n');
}

const ROOT = join(PATCHES_DIR, '..').split('\\').join('/');

/**
 * The patched source of `absolutePath` (a file under the repository's node_modules), or undefined
 * if no patch touches it. The whole path must match: a package nested under another one (wrap-ansi
 * has its own, older string-width) is another version, which the patch is not for.
 */
export function patchedSource(absolutePath, patches = loadPatches()) {
  const normalized = absolutePath.split('\\').join('/');
  for (const [file, entry] of patches) {
    if (normalized === `${ROOT}/${file}`) return applyHunks(readFileSync(absolutePath, 'utf8'), entry, file);
  }
  return undefined;
}
