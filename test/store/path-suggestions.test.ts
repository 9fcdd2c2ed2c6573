import { describe, expect, it } from 'vitest';
import { suggestPathMappings } from '../../src/store/index.js';

const HERE = new Set(['/home/ana', '/home/ana/code', '/home/ana/code/app', '/home/ana/code/lib', '/home', '/']);
const exists = (path: string): boolean => HERE.has(path);
const sessions = (project: string, ...cwds: string[]) => cwds.map((cwd) => ({ project, cwd }));

describe('suggestPathMappings', () => {
  it('suggests the missing prefix whose tail exists under home, counting the sessions it maps', () => {
    const found = suggestPathMappings({
      sessions: [
        ...sessions('/s/--Users-ana-code-app--', '/Users/ana/code/app', '/Users/ana/code/app'),
        ...sessions('/s/--Users-ana-code-lib--', '/Users/ana/code/lib'),
      ],
      home: '/home/ana',
      pathMap: [],
      exists,
    });
    expect(found).toEqual([
      {
        from: '/Users/ana',
        to: '/home/ana',
        sessions: 3,
        example: { cwd: '/Users/ana/code/app', mapped: '/home/ana/code/app' },
      },
    ]);
  });

  it('suggests nothing for a project whose missing folders are a minority, or whose tail is nowhere here', () => {
    const found = suggestPathMappings({
      sessions: [
        ...sessions('/s/p', '/home/ana/code/app', '/home/ana/code/app', '/Users/ana/code/app'),
        ...sessions('/s/q', '/Users/ana/elsewhere/x'),
        ...sessions('/s/r', '', ''),
      ],
      home: '/home/ana',
      pathMap: [],
      exists,
    });
    expect(found).toEqual([]);
  });

  it('leaves out folders a mapping already places, and Windows paths', () => {
    expect(
      suggestPathMappings({
        sessions: [...sessions('/s/p', '/Users/ana/code/app'), ...sessions('/s/w', 'C:\\Users\\ana\\code\\app')],
        home: '/home/ana',
        pathMap: [{ from: '/Users/ana', to: '/home/ana' }],
        exists,
      }),
    ).toEqual([]);
  });

  it('never suggests mapping the root, nor a folder under this machine’s home', () => {
    // /code/app is missing but its only prefix is the root; a folder gone from under this home was
    // moved on this machine, not written on another.
    expect(
      suggestPathMappings({
        sessions: [...sessions('/s/p', '/code/app'), ...sessions('/s/q', '/home/ana/gone/code/app')],
        home: '/home/ana',
        pathMap: [],
        exists,
      }),
    ).toEqual([]);
  });
});
