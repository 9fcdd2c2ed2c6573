/** `npm run docs`: regenerates the key tables, pi's followed keybindings, the command table and the search-language table in README.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withCommandTable } from './command-table.js';
import { withKeyTables, withPiKeysTable } from './key-tables.js';
import { withQueryTable } from './query-table.js';

const path = new URL('../../../../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withPiKeysTable(withQueryTable(withCommandTable(withKeyTables(before))));
if (after !== before) writeFileSync(path, after);
process.stdout.write(
  after === before ? 'README.md generated sections are up to date\n' : 'README.md generated sections updated\n',
);
