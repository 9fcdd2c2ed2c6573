/**
 * The README's screenshots are the app as it is: they are taken again here (the bundle of the
 * current sources in a real pty, the deterministic demo store, a frozen clock) and must equal the
 * committed docs/*.svg byte for byte. Taking them twice gives the same bytes, so a difference is
 * a change of what the app shows: run `npm run screenshots` and commit the new pictures.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, writeScreenshots } from '../../src/tools/docs/screenshots.js';
import { tempDir } from '../helpers/factory.js';
import { REPO_ROOT } from '../helpers/pty.js';

let out: string;
let files: string[];

beforeAll(async () => {
  out = tempDir('pi-sessions-screenshots-test-');
  files = await writeScreenshots(out);
}, 120_000);

describe('the README screenshots', () => {
  it('are what the app shows now (else: npm run screenshots)', () => {
    expect(files.map((file) => basename(file))).toEqual(SHOTS.map((shot) => shot.file));
    for (const file of files) {
      const committed = readFileSync(join(REPO_ROOT, 'docs', basename(file)), 'utf8');
      expect(readFileSync(file, 'utf8') === committed, `docs/${basename(file)} is stale: run npm run screenshots`).toBe(
        true,
      );
    }
  });

  it('open the README', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const firstSection = readme.indexOf('\n## ');
    for (const shot of SHOTS) {
      const at = readme.indexOf(`docs/${shot.file}`);
      expect(at, shot.file).toBeGreaterThan(0);
      expect(at, `${shot.file} is below the first section`).toBeLessThan(firstSection);
    }
  });

  it('are valid SVG with the screen text in them', () => {
    const picker = readFileSync(files[0]!, 'utf8');
    expect(picker.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(picker).toContain('Checkout: fix rounding in totals');
    expect(readFileSync(files[1]!, 'utf8')).toContain('Session Tree');
    expect(readFileSync(files[2]!, 'utf8')).toContain('Per day');
  });
});
