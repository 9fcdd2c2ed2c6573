/**
 * The preview of the selected session: facts first (they come from the listing and show at once),
 * then the last messages of the active path (read from the file in the background, see
 * `session-source.ts`). Every line is pre-cut to the pane width.
 */
import { Box, Text } from 'ink';
import { formatAbsoluteDate, formatBytes, formatCost, formatTokens, plural } from '../../src/format.js';
import { type ConflictPreview, conflictPreviewLines } from '../../src/picker/conflict-preview.js';
import { shortenHome } from '../../src/picker/layout.js';
import type { PreviewData } from '../../src/picker/session-source.js';
import { mapPath, type PathMap, type SessionInfo, sessionHost } from '../../src/store/index.js';
import { displayWidth, sanitizeInline, sliceByWidth, truncateToWidth } from '../../src/text/terminal-text.js';

export type PreviewLine = { text: string; tone?: 'label' | 'dim' | 'user' | 'assistant' | 'warning' };

const LINES_PER_TURN = 3;

/** Splits one line of text into at most `max` pieces of `width` columns (the last one cut with …). */
function wrapLine(text: string, width: number, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  const total = displayWidth(text);
  while (start < total && out.length < max) {
    const last = out.length === max - 1;
    out.push(
      last ? truncateToWidth(sliceByWidth(text, start, total - start), width) : sliceByWidth(text, start, width),
    );
    start += width;
  }
  return out;
}

/** How many problems, and the first one (all of them: `pi-sessions tree <session> --json`). */
function problemsFact(problems: SessionInfo['problems'], clean: (s: string) => string): string {
  const first = problems[0]!;
  const where = first.line > 0 ? `line ${first.line}: ` : '';
  return `${problems.length} · ${problems.length > 1 ? 'first: ' : ''}${where}${clean(first.message)}`;
}

/** The recorded folder, and where the path map puts it here when it maps. */
function cwdFact(cwd: string, pathMap: PathMap, home: string): string {
  const mapped = cwd === '' ? cwd : mapPath(pathMap, cwd);
  return mapped === cwd ? shortenHome(cwd, home) : `${cwd} → ${shortenHome(mapped, home)}`;
}

/** The pane's lines (pure, exported for tests). */
export function previewLines(
  info: SessionInfo,
  data: PreviewData | undefined,
  width: number,
  nowMs: number,
  home: string,
  current = false,
  pathMap: PathMap = [],
  conflict?: ConflictPreview,
): PreviewLine[] {
  const clean = (s: string): string => sanitizeInline(s, { newline: 'space' });
  const fact = (label: string, value: string): PreviewLine => ({
    text: truncateToWidth(`${label.padEnd(9)}${value}`, width),
    tone: 'label',
  });
  const u = info.usage;
  const lines: PreviewLine[] = [
    fact('Name', info.name ? clean(info.name) : '(unnamed)'),
    fact('Id', clean(info.id)),
    fact('Cwd', clean(cwdFact(info.cwd, pathMap, home))),
    fact('Created', formatAbsoluteDate(info.created)),
    fact(
      'Modified',
      `${formatAbsoluteDate(info.modified)}${nowMs - info.modified.getTime() < 5 * 60_000 ? '  ◉ live' : ''}`,
    ),
    fact(
      'Size',
      `${formatBytes(info.size)} · ${plural(info.userMessageCount, 'prompt')} · ${plural(info.entryCount, 'entry', 'entries')} · ${plural(info.branchCount, 'branch point')}`,
    ),
    fact(
      'Tokens',
      `${formatTokens(u.input)} in · ${formatTokens(u.output)} out · ${formatTokens(u.cacheRead)} cache · ${formatCost(u.cost)}`,
    ),
    fact('Models', info.models.length > 0 ? clean(info.models.join(', ')) : '(no reply)'),
  ];
  const host = sessionHost(info.path, info.cwd, pathMap);
  if (host !== undefined) lines.push(fact('Written', `on ${host}`));
  if (current) lines.push(fact('Current', 'the session pi is in (not deleted from here)'));
  if (info.labels.length > 0) lines.push(fact('Labels', clean(info.labels.join(', '))));
  if (info.parentSessionPath) lines.push(fact('Fork of', clean(shortenHome(info.parentSessionPath, home))));
  if (info.problems.length > 0) {
    lines.push(fact('Problems', problemsFact(info.problems, clean)));
    // The audit says what pi does with each problem and what to do about it.
    lines.push(fact('', 'Alt+C check view: what pi does with each, what to do'));
  }
  // What each conflict copy adds comes before the messages: it is what the row is about.
  if (conflict)
    for (const line of conflictPreviewLines(conflict, width))
      lines.push({ text: truncateToWidth(line.text, width), tone: line.tone });
  lines.push({ text: truncateToWidth(`── last messages ${'─'.repeat(Math.max(0, width))}`, width), tone: 'dim' });
  if (!data) lines.push({ text: 'Loading…', tone: 'dim' });
  else if (data.note) lines.push({ text: truncateToWidth(data.note, width), tone: 'dim' });
  else if (data.turns.length === 0) lines.push({ text: '(no messages)', tone: 'dim' });
  else {
    for (const turn of data.turns) {
      const who = turn.role === 'user' ? 'you › ' : 'pi  › ';
      for (const piece of wrapLine(`${who}${clean(turn.text)}`, Math.max(1, width), LINES_PER_TURN)) {
        lines.push({ text: piece, tone: turn.role });
      }
    }
  }
  return lines;
}

export function PreviewPane(props: {
  info: SessionInfo | undefined;
  current: boolean;
  data: PreviewData | undefined;
  width: number;
  height: number;
  nowMs: number;
  home: string;
  pathMap: PathMap;
  border: 'left' | 'top';
  conflict?: ConflictPreview;
}) {
  const { info, data, width, height } = props;
  const inner = Math.max(1, width - (props.border === 'left' ? 2 : 0));
  const bodyHeight = Math.max(0, height - (props.border === 'top' ? 1 : 0));
  let lines = info
    ? previewLines(info, data, inner, props.nowMs, props.home, props.current, props.pathMap, props.conflict)
    : [{ text: 'No session selected', tone: 'dim' as const }];
  // Facts first; when turns overflow, keep the newest ones (the end of the conversation).
  if (lines.length > bodyHeight) {
    const factsEnd = lines.findIndex((l) => l.text.startsWith('── last messages'));
    const keepFacts = Math.min(factsEnd + 1, bodyHeight);
    const room = bodyHeight - keepFacts;
    const turns = lines.slice(factsEnd + 1);
    lines = [...lines.slice(0, keepFacts), ...(room > 0 ? turns.slice(-room) : [])];
  }
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      overflow="hidden"
      borderStyle="single"
      borderTop={props.border === 'top'}
      borderLeft={props.border === 'left'}
      borderRight={false}
      borderBottom={false}
      borderDimColor
    >
      {lines.map((line, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: preview lines are computed text with no identity of their own (texts repeat) and no state
          key={i}
          wrap="truncate-end"
          dimColor={line.tone === 'dim' || line.tone === 'label'}
          color={line.tone === 'user' ? 'cyan' : line.tone === 'warning' ? 'yellow' : undefined}
        >
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
