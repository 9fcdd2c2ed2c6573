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
import { displayWidth, sanitizeInline, sliceByWidth, truncateToWidth } from '../text/terminal-text.js';

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

/** At most this many lines for why the merge is refused (the file names in it are long). */
const REFUSAL_LINES = 6;

/** `text` cut into pieces of `width` columns, at most `max` (the last one ending in … when cut). */
function wrapToWidth(text: string, width: number, max: number): string[] {
  const out: string[] = [];
  const total = displayWidth(text);
  for (let start = 0; start < total && out.length < max; start += width)
    out.push(
      out.length === max - 1
        ? truncateToWidth(sliceByWidth(text, start, total - start), width)
        : sliceByWidth(text, start, width),
    );
  return out;
}

/** The section's lines for a pane `width` columns wide (the pane cuts the others to it). */
export function conflictPreviewLines(preview: ConflictPreview, width: number): ConflictPreviewLine[] {
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
    // "Adds": entries no other file of the group holds (the check's word for it too).
    const what = file.own === 0 ? 'adds nothing' : `adds ${plural(file.own, 'entry', 'entries')}`;
    lines.push({ text: `${who} ${what}`, tone: 'label' });
    for (const line of file.lines)
      lines.push({ text: `  ${clean(line)}`, tone: line.startsWith('you ›') ? 'user' : 'assistant' });
  }
  if (adds.refused !== undefined) {
    // The store names each file by its whole path: here, beside the group, the names are enough.
    let why = adds.refused;
    for (const file of adds.files) why = why.replaceAll(file.path, basename(file.path));
    for (const piece of wrapToWidth(`⚠ Not mergeable: ${clean(why)}`, width, REFUSAL_LINES))
      lines.push({ text: piece, tone: 'warning' });
  } else if (preview.mergeKey !== '')
    lines.push({ text: `${preview.mergeKey} merges them into one file pi loads`, tone: 'dim' });
  return lines;
}
