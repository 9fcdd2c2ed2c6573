import { describe, expect, it } from 'vitest';
import {
  createSearchIndex,
  type ParsedQuery,
  parseQuery,
  prepareTexts,
  searchSessions,
  snippetFor,
} from '../../src/picker/query.js';
import type { LinearRegex } from '../../src/text/linear-regex.js';
import { DAY, MIN, makeInfo, NOW } from './make-info.js';

const ok = (q: string): Extract<ParsedQuery, { ok: true }> => {
  const parsed = parseQuery(q, NOW);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed;
};

describe('parseQuery', () => {
  it.each([
    [
      'foo bar',
      [
        { kind: 'word', text: 'foo' },
        { kind: 'word', text: 'bar' },
      ],
    ],
    [
      '"Node  CVE" x',
      [
        { kind: 'phrase', text: 'node cve' },
        { kind: 'word', text: 'x' },
      ],
    ],
    [
      'cwd:"my dir" name:Fix',
      [
        { kind: 'field', field: 'cwd', text: 'my dir' },
        { kind: 'field', field: 'name', text: 'fix' },
      ],
    ],
    [
      'model:opus label:todo',
      [
        { kind: 'field', field: 'model', text: 'opus' },
        { kind: 'field', field: 'label', text: 'todo' },
      ],
    ],
    ['size:>10mb', [{ kind: 'size', op: '>', bytes: 10 * 1024 * 1024 }]],
    ['size:<=1k', [{ kind: 'size', op: '<=', bytes: 1024 }]],
    ['after:2w', [{ kind: 'after', ms: NOW - 14 * DAY }]],
    ['before:30d', [{ kind: 'before', ms: NOW - 30 * DAY }]],
    [
      'is:named is:EMPTY',
      [
        { kind: 'is', flag: 'named', sinceMs: NOW - 5 * MIN },
        { kind: 'is', flag: 'empty', sinceMs: NOW - 5 * MIN },
      ],
    ],
    ['http://x.y', [{ kind: 'word', text: 'http://x.y' }]],
    ['cwd: foo', [{ kind: 'word', text: 'foo' }]],
    ['', []],
  ])('%j', (input, terms) => {
    expect(ok(input).terms).toEqual(terms);
  });

  it('re: takes the rest of the line, spaces included', () => {
    const parsed = ok('is:fork re:foo (bar)+ baz');
    expect(parsed.terms[0]).toMatchObject({ kind: 'is', flag: 'fork' });
    expect(parsed.terms[1]).toMatchObject({ kind: 'regex', source: 'foo (bar)+ baz' });
    // Case-insensitive, RE2 syntax.
    const re = (parsed.terms[1] as { re: LinearRegex }).re;
    expect(re.test('FOO BARBAR BAZ')).toBe(true);
  });

  it.each([
    ['re:(unclosed', /^re: missing closing \): `\(unclosed` \(RE2 syntax\)$/],
    ['re:(?<=(a))b', /^re: lookbehind is not supported with a capture group inside/],
    ['re:foo(?=bar)', /^re: lookahead is not supported \(RE2 syntax\)$/],
    ['re:(a)\\1', /^re: backreferences \(\\1\) are not supported/],
    ['foo "bar', /unclosed quote at column 5/],
    ['after:tomorrow', /after: invalid date or age/],
    ['size:>huge', /size: invalid size/],
    ['is:weird', /unknown is:weird/],
  ])('%j is an error value', (input, message) => {
    const parsed = parseQuery(input, NOW);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('searchSessions', () => {
  const a = makeInfo({ path: '/s/a.jsonl', name: 'Fix login bug', ageMs: 5 * DAY, allMessagesText: 'hello world' });
  const b = makeInfo({
    path: '/s/b.jsonl',
    ageMs: 1 * DAY,
    allMessagesText: 'we should fix the Login flow\n\nlater   today',
    cwd: '/home/u/webapp',
  });
  const c = makeInfo({
    path: '/s/c.jsonl',
    ageMs: 40 * DAY,
    allMessagesText: 'nothing here',
    models: [],
    size: 20 * 1024 * 1024,
    parentSessionPath: '/s/a.jsonl',
    labels: ['Checkpoint'],
  });
  const index = createSearchIndex([b, a, c]);
  const paths = (q: string): string[] => searchSessions(index, ok(q)).matches.map((m) => m.info.path);

  it.each([
    ['login', ['/s/b.jsonl', '/s/a.jsonl']],
    ['login fix', ['/s/b.jsonl', '/s/a.jsonl']],
    ['login hello', ['/s/a.jsonl']],
    ['"login flow"', ['/s/b.jsonl']],
    ['"later today"', ['/s/b.jsonl']],
    ['webap', ['/s/b.jsonl']],
    ['webpp', ['/s/b.jsonl']],
    ['re:l.gin\\s+flow', ['/s/b.jsonl']],
    ['is:empty', ['/s/c.jsonl']],
    ['is:fork', ['/s/c.jsonl']],
    ['is:named', ['/s/a.jsonl']],
    ['size:>10mb', ['/s/c.jsonl']],
    ['before:30d', ['/s/c.jsonl']],
    ['after:2d', ['/s/b.jsonl']],
    ['label:check', ['/s/c.jsonl']],
    ['model:claude', ['/s/b.jsonl', '/s/a.jsonl']],
    ['cwd:webapp hello', []],
    ['zzz', []],
  ])('%j → %j', (q, expected) => {
    expect(paths(q)).toEqual(expected);
  });

  it('ranks a name hit above a text hit', () => {
    const scores = new Map(searchSessions(index, ok('login')).matches.map((m) => [m.info.path, m.score]));
    expect(scores.get('/s/a.jsonl')!).toBeLessThan(scores.get('/s/b.jsonl')!);
  });

  it('gives a snippet around the first text hit in the original case', () => {
    const match = searchSessions(index, ok('later')).matches[0]!;
    expect(match.textHit).toBeDefined();
    const snippet = snippetFor(match.info, match.textHit!);
    expect(snippet.match).toBe('later');
    expect(snippet.before).toContain('Login flow');
    // Whitespace was collapsed for matching; the snippet maps back to the original offsets.
    const phrase = searchSessions(index, ok('"later today"')).matches[0]!;
    expect(snippetFor(phrase.info, phrase.textHit!).match).toBe('later   today');
  });

  it('with preparedOnly, skips unprepared text and says how many', () => {
    const fresh = [
      makeInfo({ path: '/p/1', allMessagesText: 'needle' }),
      makeInfo({ path: '/p/2', allMessagesText: 'needle too' }),
    ];
    const idx = createSearchIndex(fresh);
    const before = searchSessions(idx, ok('needle'), { preparedOnly: true });
    expect(before.matches).toEqual([]);
    expect(before.unindexed).toBe(2);
    expect(prepareTexts(fresh, 1000)).toBe(0);
    const after = searchSessions(idx, ok('needle'), { preparedOnly: true });
    expect(after.matches.map((m) => m.info.path)).toEqual(['/p/1', '/p/2']);
    expect(after.unindexed).toBe(0);
  });

  it('narrowing through the pattern cache gives the same answers as a fresh scan', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      makeInfo({ path: `/m/${i}`, allMessagesText: `x ${i % 7 === 0 ? 'authentication' : 'author'} ${i}` }),
    );
    const idx = createSearchIndex(many);
    for (const q of ['a', 'au', 'aut', 'auth', 'authe', 'authen']) searchSessions(idx, ok(q));
    const cached = searchSessions(idx, ok('authen')).matches.map((m) => m.info.path);
    const fresh = searchSessions(createSearchIndex(many), ok('authen')).matches.map((m) => m.info.path);
    expect(cached).toEqual(fresh);
    expect(cached).toHaveLength(29);
  });

  // How fast is the bench's business (`npm run bench`: search keystroke, real pty); this checks the
  // answer on a big prepared store, every prefix of a query as it is typed.
  it('answers each keystroke over 2,000 sessions of ~100 KB once text is prepared', () => {
    const words = ['parser', 'login', 'function', 'return', 'error', 'value', 'test'];
    const big = Array.from({ length: 2000 }, (_, i) => {
      const text = Array.from({ length: 14_000 }, (_, j) => words[(i + j * 7) % words.length]).join(' ');
      return makeInfo({ path: `/big/${i}`, allMessagesText: `${text} unique${i}` });
    });
    const idx = createSearchIndex(big);
    prepareTexts(big, 60_000);
    for (const q of ['unique1', 'unique12']) {
      const prefix = q.slice('unique'.length);
      const expected = big.filter((_, i) => String(i).startsWith(prefix)).length;
      expect(searchSessions(idx, ok(q), { preparedOnly: true }).matches.length).toBe(expected);
    }
    expect(searchSessions(idx, ok('unique123')).matches.map((m) => m.info.path)).toEqual([
      '/big/123',
      ...Array.from({ length: 10 }, (_, d) => `/big/123${d}`),
    ]);
  }, 120_000);
});
