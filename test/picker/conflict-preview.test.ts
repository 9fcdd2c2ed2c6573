/**
 * The preview of a row with conflict copies: what each file alone holds (count, first lines of
 * its text), which device and when for a copy, and a plain warning when the merge is refused.
 */
import { describe, expect, it } from 'vitest';
import { conflictPreviewLines } from '../../src/picker/conflict-preview.js';

const COPY = '/s/x.sync-conflict-20260105-130000-7QKMJ3X.jsonl';
const files = [
  { path: '/s/x.jsonl', own: 2, lines: ['you › add a README', 'pi › README added'] },
  {
    path: COPY,
    copy: { path: COPY, tool: 'syncthing' as const, device: '7QKMJ3X', time: '2026-01-05T13:00:00' },
    own: 0,
    lines: [],
  },
  {
    path: '/s/x.conflict-a\u001b[31m.jsonl',
    copy: { path: '/s/x.conflict-a.jsonl', tool: 'other' as const },
    own: 1,
    lines: [],
  },
];

describe('conflictPreviewLines', () => {
  it('says what each file adds and which key merges them', () => {
    expect(conflictPreviewLines({ files: 3, mergeKey: 'Alt+M', adds: { files } }, 80).map((l) => l.text)).toEqual([
      '── ⇄ 3 files: this session and 2 conflict copies ──',
      'The original adds 2 entries',
      '  you › add a README',
      '  pi › README added',
      'Copy (device 7QKMJ3X, 2026-01-05T13:00:00) adds nothing',
      // The ESC in the file name is shown as a glyph, never sent to the terminal.
      'Copy x.conflict-a\u241b[31m.jsonl adds 1 entry',
      'Alt+M merges them into one file pi loads',
    ]);
  });

  it('says while reading, and plainly when the copies disagree', () => {
    expect(conflictPreviewLines({ files: 2, mergeKey: 'Alt+M' }, 80).at(-1)?.text).toBe('Reading what each copy adds…');
    const refusal = (width: number) =>
      conflictPreviewLines(
        {
          files: 2,
          mergeKey: 'Alt+M',
          adds: {
            files: files.slice(0, 2),
            refused: `cannot merge: /s/x.jsonl (line 2) and ${COPY} (line 2) hold different entries with the same id 1; nothing was merged`,
          },
        },
        width,
      ).filter((line) => line.tone === 'warning');
    // The folder goes (the names are enough beside the group); the rest wraps in the pane.
    const whole =
      '⚠ Not mergeable: cannot merge: x.jsonl (line 2) and x.sync-conflict-20260105-130000-7QKMJ3X.jsonl (line 2) hold different entries with the same id 1; nothing was merged';
    expect(refusal(400)).toEqual([{ text: whole, tone: 'warning' }]);
    const wrapped = refusal(40);
    expect(wrapped.map((l) => l.text).join('')).toBe(whole);
    expect(wrapped.every((l) => l.text.length <= 40)).toBe(true);
    expect(refusal(10)).toHaveLength(6);
    expect(refusal(10).at(-1)?.text.endsWith('…')).toBe(true);
  });
});
