/** `npm run docs`: regenerates the key tables in README.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { withKeyTables } from './key-tables.js';

const path = new URL('../../../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withKeyTables(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? 'README.md key tables are up to date\n' : 'README.md key tables updated\n');
