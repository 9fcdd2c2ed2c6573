/**
 * Full-screen `?` help generated from the keymap (grouped by mode), so it always matches the
 * real bindings. Descriptions wrap at words under their own column; when the content is taller than the
 * given height, `offset` scrolls it (the screens' reducers move it with src/keymap/help-view.ts)
 * and the last body row says which lines are shown of how many.
 */
import { Box, Text } from 'ink';
import {
  HELP_KEY_MARGIN,
  type HelpSection,
  helpKeyWidth,
  helpLines,
  helpPosition,
  helpWindow,
} from '../../src/keymap/help-view.js';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import { fitToWidth, truncateToWidth } from '../../src/text/terminal-text.js';

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

export { type HelpLine, type HelpSection, helpLines } from '../../src/keymap/help-view.js';

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
  const lines = helpLines(bindings, modeTitles, extra, width);
  // "  <keys padded to keyWidth>  <description>"
  const keyWidth = helpKeyWidth(
    lines.flatMap((line) => (line.kind === 'row' ? [line] : [])),
    width,
  );
  const window = helpWindow(lines.length, height, footer !== '', offset);
  const start = window.start;
  const visible = lines.slice(start, start + window.shown);

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
            <Text bold>{fitToWidth(`  ${line.keys}`, Math.min(width, keyWidth + HELP_KEY_MARGIN))}</Text>
            {truncateToWidth(line.description, Math.max(0, width - keyWidth - HELP_KEY_MARGIN))}
          </Text>
        );
      })}
      {window.overflows ? (
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(helpPosition(window), width)}
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
