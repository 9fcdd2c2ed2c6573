/** The search syntax table (the `?` help and the README) says only what the parser does. */
import { describe, expect, it } from 'vitest';
import { helpLines } from '../../components/common/HelpOverlay.js';
import { PICKER_BINDINGS, PICKER_MODE_TITLES } from '../../src/picker/keymap.js';
import { parseQuery } from '../../src/picker/query.js';
import { QUERY_SYNTAX, SEARCH_HELP } from '../../src/picker/query-syntax.js';

describe('the search syntax table', () => {
  it.each(QUERY_SYNTAX.map((row) => [row.syntax]))('%s parses to terms', (syntax) => {
    const parsed = parseQuery(syntax.replace(/\bregex\b/, 'a.b').replace(/\bx\b/g, 'v'), Date.UTC(2026, 0, 15));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.terms.length).toBeGreaterThan(0);
  });

  it("is a section of the picker's ? help, after the keys", () => {
    // Wide enough that no description wraps onto a second row.
    const lines = helpLines(PICKER_BINDINGS, PICKER_MODE_TITLES, SEARCH_HELP, 1000);
    const at = lines.findIndex((l) => l.kind === 'section' && l.text === 'Search');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1).map((l) => (l.kind === 'row' ? l.keys : l.kind))).toEqual(
      QUERY_SYNTAX.map((r) => r.syntax),
    );
  });
});
