/** The README's generated sections: text between a begin marker and an end marker. */

/**
 * `readme` with the section from `begin` to `end` (markers included) replaced by `content`, which
 * carries the markers itself. The begin marker is matched on its first 16 characters so that a
 * changed description in the marker is rewritten too.
 */
export function replaceSection(readme: string, begin: string, end: string, content: string): string {
  const from = readme.indexOf(begin.slice(0, 16));
  const to = readme.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`README.md has no ${begin.slice(5, 16)} / ${end.slice(5, -4)} markers`);
  return readme.slice(0, from) + content + readme.slice(to + end.length);
}
