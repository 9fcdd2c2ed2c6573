/** A two-entry session in its own temp folder (or `dir`), for the write-safety tests. */
import { join } from 'node:path';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

export function session(dir = tempDir()): { path: string; builder: SessionBuilder } {
  const builder = new SessionBuilder();
  builder.user('hi');
  builder.assistant('hello');
  return { path: builder.writeTo(join(dir, 'a.jsonl')), builder };
}
