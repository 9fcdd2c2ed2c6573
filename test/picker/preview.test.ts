import { describe, expect, it } from 'vitest';
import { previewLines } from '../../components/picker/PreviewPane.js';
import { makeInfo, NOW } from './make-info.js';

const texts = (info: ReturnType<typeof makeInfo>): string[] =>
  previewLines(info, undefined, 120, NOW, '/home/u').map((l) => l.text);

describe('the preview\u2019s facts', () => {
  it('say how many problems a session has and what the first one is, and point at the check view key (Alt+C)', () => {
    const info = makeInfo({
      path: '/s/a.jsonl',
      problems: [
        { line: 3, kind: 'unparsable-line', message: 'line is not JSON' },
        { line: 0, kind: 'bad-parent', message: 'entry 1234 has a bad parent' },
      ],
    });
    const row = texts(info).find((t) => t.startsWith('Problems'));
    expect(row).toBe('Problems 2 · first: line 3: line is not JSON');
    expect(texts(makeInfo({ path: '/s/b.jsonl', problems: [{ line: 0, kind: 'bom', message: 'one' }] }))).toContain(
      'Problems 1 · one',
    );
    const lines = texts(info);
    expect(lines[lines.indexOf(row!) + 1]).toBe(`${' '.repeat(9)}Alt+C check view: what pi does with each, what to do`);
    expect(texts(makeInfo({ path: '/s/d.jsonl' })).join('\n')).not.toContain('Alt+C');
  });

  it('show a hostile header id escaped', () => {
    const info = makeInfo({ path: '/s/c.jsonl', id: '\u001b]52;c;cHduZWQ=\u0007\u001b]0;T\u0007' });
    expect(texts(info)).toContain('Id       ␛]52;c;cHduZWQ=\\x07␛]0;T\\x07');
  });

  it('say when the session is the one pi is in (--current)', () => {
    const info = makeInfo({ path: '/s/d.jsonl' });
    expect(previewLines(info, undefined, 120, NOW, '/home/u', true).map((l) => l.text)).toContain(
      'Current  the session pi is in (not deleted from here)',
    );
    expect(texts(info).some((t) => t.startsWith('Current'))).toBe(false);
  });
});
