/**
 * The store's door holds: biome.json's import rules fail `npm run check` when a module outside
 * src/store/ imports a store internal, or when a screen module imports node:fs. Each probe file is
 * linted with the repository's own rules (its `overrides`, copied as they are) in a scratch copy
 * of the layout, so the test proves the rule fires, not only that nothing violates it today.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/corpus.js';

const BIOME = join(REPO_ROOT, 'node_modules', '.bin', 'biome');
const scratch = mkdtempSync(join(tmpdir(), 'door-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const config = JSON.parse(readFileSync(join(REPO_ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;
// Only the lint rules: a scratch folder is no git work tree and needs no formatting check.
const lintConfig = JSON.stringify({
  linter: config['linter'],
  overrides: config['overrides'],
  formatter: { enabled: false },
});

let serial = 0;
/** Lints one file at `path` in a fresh scratch root holding the repository's rules. */
function lint(path: string, source: string): { ok: boolean; output: string } {
  const root = join(scratch, `${serial++}`);
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, 'biome.json'), lintConfig);
  writeFileSync(join(root, path), source);
  const run = spawnSync(BIOME, ['lint', '--colors=off', path], { cwd: root, encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

describe('the store door (biome.json noRestrictedImports)', () => {
  it('fails a store internal imported from outside the store, in src/ and in components/', () => {
    for (const [path, source] of [
      ['src/tree/probe.ts', "import { parseText } from '../store/read/lines.js';\nexport const p = parseText;\n"],
      ['src/catalog/probe.ts', "import type { Seam } from '../store/read/scan.js';\nexport type P = Seam;\n"],
      [
        'components/tree/probe.tsx',
        "import { buildTree } from '../../src/store/tree.js';\nexport const p = buildTree;\n",
      ],
      ['src/cli/probe.ts', "export { sessionTitle } from '../store/summary/summary.js';\n"],
    ] as const) {
      const result = lint(path, source);
      expect(result.ok, `${path}\n${result.output}`).toBe(false);
      expect(result.output).toContain('lint/style/noRestrictedImports');
      expect(result.output).toContain('through its door');
    }
  });

  it('lets the door through, and the store import its own files', () => {
    for (const [path, source] of [
      ['src/tree/probe.ts', "import { parseText } from '../store/index.js';\nexport const p = parseText;\n"],
      ['components/tree/probe.tsx', "import type { Seam } from '../../src/store/index.js';\nexport type P = Seam;\n"],
      ['src/store/summary/probe.ts', "import { parseText } from '../read/lines.js';\nexport const p = parseText;\n"],
    ] as const) {
      const result = lint(path, source);
      expect(result.ok, `${path}\n${result.output}`).toBe(true);
    }
  });

  it('fails node:fs in the screens and their components, not at the edges', () => {
    for (const path of [
      'components/picker/probe.tsx',
      'src/picker/probe.ts',
      'src/tree/probe.ts',
      'src/state/probe.ts',
    ]) {
      for (const module of ['node:fs', 'node:fs/promises']) {
        const result = lint(path, `import { stat } from '${module}';\nexport const p = stat;\n`);
        expect(result.ok, `${path} ${module}\n${result.output}`).toBe(false);
        expect(result.output).toContain('Screens never touch files');
      }
    }
    const edge = lint('src/catalog/probe.ts', "import { stat } from 'node:fs';\nexport const p = stat;\n");
    expect(edge.ok, edge.output).toBe(true);
  });
});
