import { describe, expect, it } from 'vitest';
import {
  hostOfPath,
  mapPath,
  otherMachineForms,
  type PathMap,
  parsePathMap,
  sessionHost,
  withMapping,
} from '../../src/store/index.js';

const MAP: PathMap = [
  { from: '/Users/ana', to: '/home/ana', host: 'ana-mac' },
  { from: '/Users/ana/work', to: '/srv/work' },
  { from: 'C:\\Users\\ana', to: '/home/ana', host: 'ana-pc' },
];

describe('mapPath', () => {
  it('replaces the longest matching prefix, whole path components only', () => {
    expect(mapPath(MAP, '/Users/ana/code/app')).toBe('/home/ana/code/app');
    expect(mapPath(MAP, '/Users/ana')).toBe('/home/ana');
    expect(mapPath(MAP, '/Users/ana/work/api')).toBe('/srv/work/api');
    expect(mapPath(MAP, '/Users/ana/workshop')).toBe('/home/ana/workshop');
    // `/Users/an` is not a folder of `/Users/ana`, nor `/Users/ana` of `/Users/anabel`.
    expect(mapPath([{ from: '/Users/an', to: '/x' }], '/Users/ana/app')).toBe('/Users/ana/app');
    expect(mapPath(MAP, '/Users/anabel/app')).toBe('/Users/anabel/app');
    expect(mapPath(MAP, '/opt/app')).toBe('/opt/app');
    expect(mapPath([], '/Users/ana')).toBe('/Users/ana');
  });

  it('ignores a trailing separator on either side and writes the tail in the target’s separators', () => {
    expect(mapPath([{ from: '/Users/ana/', to: '/home/ana/' }], '/Users/ana/code')).toBe('/home/ana/code');
    expect(mapPath(MAP, 'C:\\Users\\ana\\code\\app')).toBe('/home/ana/code/app');
    expect(mapPath([{ from: '/home/ana', to: 'D:\\ana' }], '/home/ana/code/app')).toBe('D:\\ana\\code\\app');
  });

  it('maps everything under a root `from`', () => {
    expect(mapPath([{ from: '/', to: '/mnt/mac' }], '/Users/ana')).toBe('/mnt/mac/Users/ana');
  });
});

describe('otherMachineForms', () => {
  it('gives the paths that map to a path here, and none that a longer mapping takes elsewhere', () => {
    expect(otherMachineForms(MAP, '/home/ana/code/app')).toEqual(['/Users/ana/code/app', 'C:\\Users\\ana\\code\\app']);
    // /Users/ana/work/x maps to /srv/work/x, not to /home/ana/work/x.
    expect(otherMachineForms(MAP, '/home/ana/work/x')).toEqual(['C:\\Users\\ana\\work\\x']);
    expect(otherMachineForms(MAP, '/srv/work/api')).toEqual(['/Users/ana/work/api']);
    expect(otherMachineForms(MAP, '/home/anabel')).toEqual([]);
  });
});

describe('hosts', () => {
  it('come from the longest matching mapping that names one', () => {
    expect(hostOfPath(MAP, '/Users/ana/code')).toBe('ana-mac');
    expect(hostOfPath(MAP, '/Users/ana/work/api')).toBe('ana-mac');
    expect(hostOfPath(MAP, 'C:\\Users\\ana\\x')).toBe('ana-pc');
    expect(hostOfPath(MAP, '/home/ana/code')).toBeUndefined();
  });

  it('a conflict copy’s device comes first, from its file name', () => {
    expect(sessionHost('/s/2026_abc.sync-conflict-20260105-091500-ABCDEF1.jsonl', '/Users/ana/code', MAP)).toBe(
      'ABCDEF1',
    );
    expect(sessionHost("/s/a (ana's conflicted copy 2026-01-05).jsonl", '/opt', [])).toBe('ana');
    expect(sessionHost('/s/a.jsonl', '/Users/ana/code', MAP)).toBe('ana-mac');
    expect(sessionHost('/s/a.jsonl', '', MAP)).toBeUndefined();
  });
});

describe('withMapping', () => {
  it('adds a mapping, or replaces the one with the same from', () => {
    const one = withMapping([], { from: '/Users/ana/', to: '/home/ana' });
    expect(one).toEqual([{ from: '/Users/ana', to: '/home/ana' }]);
    expect(withMapping(one, { from: '/Users/ana', to: '/home/a', host: 'mac' })).toEqual([
      { from: '/Users/ana', to: '/home/a', host: 'mac' },
    ]);
    expect(withMapping(one, { from: '/Users/bo', to: '/home/bo' })).toHaveLength(2);
  });
});

describe('parsePathMap', () => {
  it('keeps the usable entries and says why each other one is left out', () => {
    const parsed = parsePathMap(
      [
        { from: '/Users/ana', to: '/home/ana', host: ' ana-mac ' },
        { from: 'Users/bo', to: '/home/bo' },
        { from: '/a' },
        'x',
        { from: '/b', to: '/c', host: 3 },
      ],
      '/agent/pi-sessions.json',
    );
    expect(parsed.map).toEqual([{ from: '/Users/ana', to: '/home/ana', host: 'ana-mac' }]);
    expect(parsed.problems).toEqual([
      '/agent/pi-sessions.json: pathMap[1] needs "from" and "to" as absolute paths, ignored',
      '/agent/pi-sessions.json: pathMap[2] needs "from" and "to" as absolute paths, ignored',
      '/agent/pi-sessions.json: pathMap[3] is not an object, ignored',
      '/agent/pi-sessions.json: pathMap[4]: "host" is not a name, ignored',
    ]);
    expect(parsePathMap(undefined, 'f')).toEqual({ map: [], problems: [] });
    expect(parsePathMap({ from: '/a' }, 'f').problems).toEqual(['f: pathMap is not a list, ignored']);
  });
});
