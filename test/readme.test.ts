/** The README's first lines and key tables stay true. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCommandTable } from '../src/tools/docs/command-table.js';
import { withKeyTables, withPiKeysTable } from '../src/tools/docs/key-tables.js';
import { withQueryTable } from '../src/tools/docs/query-table.js';
import { REPO_ROOT } from './helpers/corpus.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the two set-up commands', () => {
    const firstLines = readme.split('\n').slice(0, 12).join('\n');
    expect(firstLines).toContain('npm install && npm start');
    expect(firstLines).toContain('npm install && npm test');
  });

  it('has key tables generated from the keymaps (run `npm run docs` after changing a binding)', () => {
    expect(withKeyTables(readme)).toBe(readme);
  });

  it("has the table of pi's keybindings.json actions followed, generated from the shared-action tables (run `npm run docs`)", () => {
    expect(withPiKeysTable(readme)).toBe(readme);
  });

  it("has the command table generated from the CLI's command table (run `npm run docs` after changing a command)", () => {
    expect(withCommandTable(readme)).toBe(readme);
  });

  it("has the search-language table generated from the `?` help's table (run `npm run docs` after changing it)", () => {
    expect(withQueryTable(readme)).toBe(readme);
  });

  it('documents the test command that .ci/run runs', () => {
    const ci = readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toContain('npm install && npm test');
  });
});
