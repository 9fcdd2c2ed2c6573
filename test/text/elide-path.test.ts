import { describe, expect, it } from 'vitest';
import { elidePathMiddle } from '../../src/text/elide-path.js';
import { displayWidth } from '../../src/text/terminal-text.js';

describe('elidePathMiddle', () => {
  const path = '/tmp/pi-sessions-e2e-123456-7/agent/sessions/--tmp-project--/2026-01-05T09-00-00-000Z_abc.jsonl';

  it('keeps a path that fits, whole', () => {
    expect(elidePathMiddle(path, path.length)).toBe(path);
    expect(elidePathMiddle('x.jsonl', 3 + 4)).toBe('x.jsonl');
  });

  it('cuts the middle: the start, an ellipsis, and the file name whole', () => {
    expect(elidePathMiddle(path, 60)).toBe('/tmp/pi-sessions-e2e-123…/2026-01-05T09-00-00-000Z_abc.jsonl');
    for (let width = 1; width < path.length; width++) {
      const cut = elidePathMiddle(path, width);
      expect(displayWidth(cut), String(width)).toBeLessThanOrEqual(width);
      // As long as the name fits with a little head, it is kept whole.
      if (width >= '/2026-01-05T09-00-00-000Z_abc.jsonl'.length + 4)
        expect(cut).toMatch(/…\/2026-01-05T09-00-00-000Z_abc\.jsonl$/);
    }
  });

  it('a name wider than the room keeps its end (the id and extension)', () => {
    expect(elidePathMiddle(path, 20)).toBe('…0-00-000Z_abc.jsonl');
    expect(elidePathMiddle('2026-01-05T09-00-00-000Z_abc.jsonl', 12)).toBe('…Z_abc.jsonl');
    expect(elidePathMiddle(path, 0)).toBe('');
  });

  it('wide characters are counted by cells', () => {
    const wide = '/home/用户/项目/会话/2026_abc.jsonl';
    const cut = elidePathMiddle(wide, 24);
    expect(displayWidth(cut)).toBeLessThanOrEqual(24);
    expect(cut.endsWith('/2026_abc.jsonl')).toBe(true);
  });
});
