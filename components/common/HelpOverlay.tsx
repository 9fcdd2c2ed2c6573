/**
 * Full-screen `?` help generated from the keymap (grouped by mode), so it always matches the
 * real bindings. Every row is pre-truncated to one line; when the content is taller than the
 * given height, `offset` scrolls it and the last row says how many rows are hidden.
 */
import { Box, Text } from 'ink';
import { helpRows, type KeyBinding } from '../../src/keymap/keymap.js';
import { displayWidth, fitToWidth, truncateToWidth } from '../../src/text/terminal-text.js';

export interface HelpOverlayProps<C extends string> {
  bindings: readonly KeyBinding<C>[];
  width: number;
  /** Rows available (the screen passes its root height). */
  height: number;
  title?: string;
  /** Display names for modes, e.g. { browse: 'Session list', search: 'Search' }. */
  modeTitles?: Readonly<Record<string, string>>;
  /** First content row shown (for scrolling); clamped. */
  offset?: number;
  /** Footer text, e.g. "Esc / ? close"; '' for none (the screen's own key line says it). */
  footer?: string;
  /** More sections after the keys, e.g. the search syntax (rows: what to type, what it does). */
  extra?: readonly HelpSection[];
}

export interface HelpSection {
  title: string;
  rows: readonly { keys: string; description: string }[];
}

export type HelpLine = { kind: 'section'; text: string } | { kind: 'row'; keys: string; description: string } | { kind: 'blank' };

/** Flattens the help sections into display lines (pure, exported for tests). */
export function helpLines<C extends string>(
  bindings: readonly KeyBinding<C>[],
  modeTitles: Readonly<Record<string, string>> = {},
  extra: readonly HelpSection[] = [],
): HelpLine[] {
  const lines: HelpLine[] = [];
  helpRows(bindings).forEach((section, i) => {
    if (i > 0) lines.push({ kind: 'blank' });
    const title = section.mode === undefined ? 'Everywhere' : (modeTitles[section.mode] ?? section.mode);
    lines.push({ kind: 'section', text: title });
    for (const row of section.rows) lines.push({ kind: 'row', keys: row.keys, description: row.description });
  });
  for (const section of extra) {
    lines.push({ kind: 'blank' }, { kind: 'section', text: section.title });
    for (const row of section.rows) lines.push({ kind: 'row', keys: row.keys, description: row.description });
  }
  return lines;
}

export function HelpOverlay<C extends string>({
  bindings,
  width,
  height,
  title = 'Keyboard shortcuts',
  modeTitles = {},
  offset = 0,
  footer = 'Esc / ? close',
  extra = [],
}: HelpOverlayProps<C>) {
  const lines = helpLines(bindings, modeTitles, extra);
  // "  <keys padded to keyWidth>  <description>"
  const keyWidth = Math.min(
    Math.max(0, ...lines.map((line) => (line.kind === 'row' ? displayWidth(line.keys) : 0))),
    Math.floor(width / 2),
  );
  const bodyHeight = Math.max(0, height - (footer === '' ? 1 : 2)); // title (+ footer)
  const maxOffset = Math.max(0, lines.length - bodyHeight);
  const start = Math.min(Math.max(0, offset), maxOffset);
  const overflows = lines.length - start > bodyHeight;
  const shown = overflows ? Math.max(0, bodyHeight - 1) : bodyHeight; // keep a row for "… N more"
  const visible = lines.slice(start, start + shown);
  const hiddenBelow = lines.length - start - visible.length;

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {truncateToWidth(title, width)}
      </Text>
      {visible.map((line, i) => {
        const key = `${start + i}`;
        if (line.kind === 'blank') return <Text key={key}> </Text>;
        if (line.kind === 'section') {
          return (
            <Text key={key} underline wrap="truncate-end">
              {truncateToWidth(line.text, width)}
            </Text>
          );
        }
        return (
          <Text key={key} wrap="truncate-end">
            <Text bold>{fitToWidth(`  ${line.keys}`, Math.min(width, keyWidth + 4))}</Text>
            {truncateToWidth(line.description, Math.max(0, width - keyWidth - 4))}
          </Text>
        );
      })}
      {overflows && hiddenBelow > 0 ? (
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(`… ${hiddenBelow} more`, width)}
        </Text>
      ) : null}
      <Box flexGrow={1} />
      {footer === '' ? null : (
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(footer, width)}
        </Text>
      )}
    </Box>
  );
}
