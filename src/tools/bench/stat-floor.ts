/** The floor of any catalogue revalidation: list every project folder and stat every session file. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function statFloor(root: string): number {
  let files = 0;
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(root, dir.name))) {
      if (!name.endsWith('.jsonl')) continue;
      statSync(join(root, dir.name, name));
      files++;
    }
  }
  return files;
}
