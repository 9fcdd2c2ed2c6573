/** fzf's operators and the tool predicates of the search language (query-language.ts, query-engine.ts). */
import { describe, expect, it } from 'vitest';
import { createSearchIndex, type ParsedQuery, parseQuery, searchSessions } from '../../src/picker/query.js';
import type { SessionInfo } from '../../src/store/types.js';
import { makeInfo, NOW } from './make-info.js';

const ok = (q: string): Extract<ParsedQuery, { ok: true }> => {
  const parsed = parseQuery(q, NOW);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed;
};

describe('parsing the operators', () => {
  it.each([
    ['!foo', [{ kind: 'not', term: { kind: 'exact', text: 'foo' } }]],
    ["'Foo", [{ kind: 'exact', text: 'foo' }]],
    ['^Pars', [{ kind: 'prefix', text: 'pars' }]],
    ['Login$', [{ kind: 'suffix', text: 'login' }]],
    [
      '^Fix login$',
      [
        { kind: 'prefix', text: 'fix' },
        { kind: 'suffix', text: 'login' },
      ],
    ],
    ['^notes$', [{ kind: 'whole', text: 'notes' }]],
    // A predicate keeps its `$`, a quoted word too, and `$` alone is a character.
    ['cwd:$HOME', [{ kind: 'field', field: 'cwd', text: '$home' }]],
    [
      '"cost$" $',
      [
        { kind: 'word', text: 'cost$' },
        { kind: 'word', text: '$' },
      ],
    ],
    [
      'a|B',
      [
        {
          kind: 'or',
          terms: [
            { kind: 'word', text: 'a' },
            { kind: 'word', text: 'b' },
          ],
        },
      ],
    ],
    [
      "'a|^b|tool:x",
      [
        {
          kind: 'or',
          terms: [
            { kind: 'exact', text: 'a' },
            { kind: 'prefix', text: 'b' },
            { kind: 'field', field: 'tool', text: 'x' },
          ],
        },
      ],
    ],
    ['!tool:bash', [{ kind: 'not', term: { kind: 'field', field: 'tool', text: 'bash' } }]],
    ['!is:named', [{ kind: 'not', term: { kind: 'is', flag: 'named', sinceMs: NOW - 5 * 60_000 } }]],
    [
      'tool:Read file:src/a.ts out:"No such file"',
      [
        { kind: 'field', field: 'tool', text: 'read' },
        { kind: 'field', field: 'file', text: 'src/a.ts' },
        { kind: 'out', text: 'no such file' },
      ],
    ],
    // Operators alone or half typed match everything; quoted they are characters.
    ["! ^ ' a| !cwd:", [{ kind: 'word', text: 'a' }]],
    [
      '"!foo" "a|b"',
      [
        { kind: 'word', text: '!foo' },
        { kind: 'word', text: 'a|b' },
      ],
    ],
    ['"^x"y', [{ kind: 'word', text: '^xy' }]],
    ["don't", [{ kind: 'word', text: "don't" }]],
  ])('%j', (input, terms) => {
    expect(ok(input).terms).toEqual(terms);
  });

  it('reports an error inside an alternative or a negation', () => {
    expect(parseQuery('a|is:nope', NOW)).toEqual({ ok: false, error: expect.stringMatching(/unknown is:nope/) });
    expect(parseQuery('!size:>lots', NOW)).toEqual({ ok: false, error: expect.stringMatching(/^size: /) });
  });
});

describe('matching with the operators', () => {
  const sessions: SessionInfo[] = [
    makeInfo({
      path: 'parser',
      name: 'parser rewrite',
      allMessagesText: 'the tokenizer and the parser',
      cwd: '/home/u/compiler',
      tools: ['read', 'edit'],
      toolTargets: '/home/u/compiler/src/parse.ts\nnpm test',
      toolOutputText: 'all 12 tests passed',
    }),
    makeInfo({
      path: 'login',
      name: 'fix login',
      allMessagesText: 'the session cookie expired',
      cwd: '/home/u/webshop',
      tools: ['bash'],
      toolTargets: 'git diff src/auth/login.ts',
      toolOutputText: 'Error: ENOENT: no such file',
    }),
    makeInfo({
      path: 'parsr',
      name: 'parsr typo',
      allMessagesText: 'nothing to see',
      cwd: '/home/u/notes',
      tools: [],
      toolTargets: '',
      toolOutputText: '',
    }),
  ];
  const index = createSearchIndex(sessions);
  const paths = (q: string): string[] => searchSessions(index, ok(q)).matches.map((m) => m.info.path);

  it('!word leaves out sessions containing the word anywhere', () => {
    expect(paths('!cookie')).toEqual(['parser', 'parsr']);
    expect(paths('!parser')).toEqual(['login', 'parsr']);
    expect(paths('!webshop')).toEqual(['parser', 'parsr']);
  });

  it("'exact takes no fuzzy or abbreviation match, a plain word does", () => {
    expect(paths('parser')).toEqual(['parser', 'parsr']);
    expect(paths("'parser")).toEqual(['parser']);
    expect(paths("'cookie")).toEqual(['login']);
  });

  it('^prefix anchors at the title, the cwd or its last folder', () => {
    expect(paths('^fix')).toEqual(['login']);
    expect(paths('^login')).toEqual([]);
    expect(paths('^web')).toEqual(['login']);
    expect(paths('^/home/u/comp')).toEqual(['parser']);
  });

  it("word$ anchors at the end of the title, the cwd or its last folder (fzf's suffix), ^word$ at both", () => {
    expect(paths('login$')).toEqual(['login']);
    expect(paths('typo$')).toEqual(['parsr']);
    expect(paths('compiler$')).toEqual(['parser']);
    expect(paths('parser$')).toEqual([]);
    expect(paths('^notes$')).toEqual(['parsr']);
    expect(paths('^parsr$')).toEqual([]);
    expect(paths('^fix login$')).toEqual(['login']);
  });

  it('a|b takes either side, and ANDs with the rest', () => {
    expect(paths("'cookie|'tokenizer")).toEqual(['parser', 'login']);
    expect(paths("'cookie|'tokenizer !tool:bash")).toEqual(['parser']);
    expect(paths('tool:bash|^parsr')).toEqual(['login', 'parsr']);
  });

  it('tool:, file: and out: look at the tool calls', () => {
    expect(paths('tool:read')).toEqual(['parser']);
    expect(paths('tool:bash')).toEqual(['login']);
    expect(paths('file:login.ts')).toEqual(['login']);
    expect(paths('file:src/')).toEqual(['parser', 'login']);
    expect(paths('file:"npm test"')).toEqual(['parser']);
    expect(paths('out:enoent')).toEqual(['login']);
    expect(paths('out:"12 tests"')).toEqual(['parser']);
    expect(paths('!out:passed !tool:bash')).toEqual(['parsr']);
  });

  it('a negated hit is never the snippet', () => {
    const [match] = searchSessions(index, ok('!cookie tokenizer')).matches;
    expect(match?.info.path).toBe('parser');
    expect(match?.textHit).toEqual({ start: 4, length: 'tokenizer'.length });
  });
});
