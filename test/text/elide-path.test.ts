import { describe, expect, it } from 'vitest';
import { elidePathMiddle, fitPaths } from '../../src/text/elide-path.js';
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

describe('fitPaths', () => {
  const long = `/tmp/${'t'.repeat(120)}/xdg/sub/Trash`;
  const message = `could not move to the trash: the trash (${long}) cannot take it: not a directory`;

  it('leaves a message that fits alone', () => {
    expect(fitPaths(message, displayWidth(message))).toBe(message);
    expect(fitPaths('no path here at all', 5)).toBe('no path here at all');
  });

  it('cuts the paths from their middle so the words after them stay whole', () => {
    // The words alone take 73 cells; the path keeps at least 12.
    for (const width of [85, 100, 150]) {
      const fitted = fitPaths(message, width);
      expect(displayWidth(fitted), String(width)).toBeLessThanOrEqual(width);
      expect(fitted).toMatch(
        /^could not move to the trash: the trash \(\/tmp\/t*…\/Trash\) cannot take it: not a directory$/,
      );
    }
  });

  it('several paths: the widest shrinks first; punctuation after a path stays with the message', () => {
    const text = `moved /a/b.jsonl to ${long}/x.jsonl.`;
    const fitted = fitPaths(text, 60);
    expect(fitted.startsWith('moved /a/b.jsonl to /tmp/')).toBe(true);
    expect(fitted.endsWith('…/x.jsonl.')).toBe(true);
    expect(displayWidth(fitted)).toBeLessThanOrEqual(60);
  });

  it('a known path with spaces in it is cut as one', () => {
    const spaced = `/home/u/My Projects/${'deep '.repeat(20)}/s.jsonl`;
    const fitted = fitPaths(`${spaced} was deleted`, 50, [spaced]);
    expect(fitted).toMatch(/^\/home\/u\/My.*…\/s\.jsonl was deleted$/);
    expect(displayWidth(fitted)).toBeLessThanOrEqual(50);
  });

  it('too narrow for the paths to make room: as short as they go, the rest for the caller to cut', () => {
    const fitted = fitPaths(message, 10);
    expect(fitted).toContain('cannot take it');
    expect(fitted).toContain('…');
  });
});
