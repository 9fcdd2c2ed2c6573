/**
 * One line for transient info/error messages. Each kind has a symbol prefix so it is
 * distinguishable without colour (NO_COLOR, colour-blind users, plain-text test frames).
 */
import { Text } from 'ink';
import { sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';

export type StatusKind = 'info' | 'success' | 'warning' | 'error';

export interface StatusMessage {
  kind: StatusKind;
  text: string;
}

/** Symbol prefixes (all single-column). */
export const STATUS_SYMBOLS: Readonly<Record<StatusKind, string>> = {
  info: '·',
  success: '✓',
  warning: '!',
  error: '✗',
};

const COLORS: Readonly<Record<StatusKind, string | undefined>> = {
  info: undefined,
  success: 'green',
  warning: 'yellow',
  error: 'red',
};

export interface StatusLineProps {
  message?: StatusMessage | undefined;
  width: number;
}

export function StatusLine({ message, width }: StatusLineProps) {
  // Always one row tall, so the layout above doesn't jump when a message appears.
  if (!message) return <Text> </Text>;
  // Messages often embed file names or error text from disk: sanitize before printing. Paths are
  // not cut from the middle here (the tree's messages end with a command to copy, whole or not at
  // all); a message that must keep its end fits its own paths (src/text/elide-path.ts fitPaths).
  const line = truncateToWidth(`${STATUS_SYMBOLS[message.kind]} ${sanitizeInline(message.text)}`, width);
  const color = COLORS[message.kind];
  return (
    <Text wrap="truncate-end" {...(color ? { color } : { dimColor: true })}>
      {line}
    </Text>
  );
}
