/**
 * The preview of a row with conflict copies (pure): what each file adds, from the store's reading
 * of the group (describeConflictAdds: the entries only that file holds, their first lines), the
 * device and time each copy's name gives, and, when the copies disagree about an entry, that the
 * merge is refused, in the store's words. Every line is one safe line (file names and session
 * text are bytes from disk); the pane cuts them to its width.
 */
import { basename } from 'node:path';
import { plural } from '../format.js';
import { type ConflictAdds, copyOrigin } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';

export interface ConflictPreviewLine {
  text: string;
  tone: 'label' | 'dim' | 'user' | 'assistant' | 'warning';
}

/** What the screen knows of the selected row's group: how many files, and (once read) what each adds. */
export interface ConflictPreview {
  files: number;
  adds?: ConflictAdds;
  /** The merge key as the keymap names it (Alt+M), '' when unbound. */
  mergeKey: string;
}

const clean = (s: string): string => sanitizeInline(s, { newline: 'space' });

export function conflictPreviewLines(preview: ConflictPreview): ConflictPreviewLine[] {
  const { adds } = preview;
  const lines: ConflictPreviewLine[] = [
    {
      text: `── ⇄ ${preview.files} files: this session and ${plural(preview.files - 1, 'conflict copy', 'conflict copies')} ──`,
      tone: 'dim',
    },
  ];
  if (!adds) return [...lines, { text: 'Reading what each copy adds…', tone: 'dim' }];
  for (const file of adds.files) {
    const origin = file.copy ? copyOrigin(file.copy) : '';
    // The device and time say which machine wrote it; the name only when it says neither.
    const who = !file.copy
      ? 'The original'
      : origin !== ''
        ? `Copy (${clean(origin)})`
        : `Copy ${clean(basename(file.path))}`;
    const what =
      file.own === 0 ? 'adds nothing the others lack' : `adds ${plural(file.own, 'entry', 'entries')} only it holds`;
    lines.push({ text: `${who}: ${what}`, tone: 'label' });
    for (const line of file.lines)
      lines.push({ text: `  ${clean(line)}`, tone: line.startsWith('you ›') ? 'user' : 'assistant' });
  }
  if (adds.refused !== undefined) lines.push({ text: `⚠ Not mergeable: ${clean(adds.refused)}`, tone: 'warning' });
  else if (preview.mergeKey !== '')
    lines.push({ text: `${preview.mergeKey} merges them into one file pi loads`, tone: 'dim' });
  return lines;
}
