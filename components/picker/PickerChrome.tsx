/**
 * The picker's fixed lines around the list: the header (counts, scope, sort, the search field),
 * the empty-list message, and the footer (status line, or the position and key hints).
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { keyFor } from '../../src/keymap/keymap.js';
import { asksForSecrets, hasRankingTerms } from '../../src/picker/query.js';
import { currentList, dialogShowsKeys, keyModeOf, type PickerState, SCOPE_TITLES } from '../../src/picker/reducer.js';
import type { TextInputState } from '../../src/state/text-input.js';
import { elidePathMiddle, fitPaths } from '../../src/text/elide-path.js';
import { sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import { KeyHints } from '../common/KeyHints.js';
import { TextInputView } from '../common/TextInputView.js';

/**
 * The header's first line, whole (Header cuts it to the width): counts, loading, scope, sort and
 * what else is on. Made in the screen, so that Header's props are strings and flags that a cursor
 * move leaves as they were, and the memoised Header is not drawn again on a move.
 */
export function headerText(state: PickerState, width: number, unprepared: number, demo: boolean): string {
  const list = currentList(state);
  // Most important first: narrow terminals cut the end of this line.
  const total = list?.sessions.length ?? 0;
  // A demo store first: nothing here is the user's.
  // While the typed query's search is still to run, the rows shown are the query before's: no count for them.
  const shown = state.queuedSearch === undefined ? String(state.rows.length) : '…';
  const parts = [`${demo ? 'DEMO store · ' : ''}${width >= 70 ? 'pi sessions ' : ''}${shown}/${total}`];
  if (list && !list.done) parts.push(`loading ${list.loaded}/${list.total || '?'}`);
  if (!list) parts.push('loading…');
  parts.push(SCOPE_TITLES[state.scope]);
  const ranked = hasRankingTerms(state.parsed);
  parts.push(`sort: ${state.sort}${state.sort === 'threaded' && ranked ? ' (best match first)' : ''}`);
  if (state.namedOnly) parts.push('named only');
  if (state.unindexed > 0 || (unprepared > 0 && ranked))
    parts.push(`text indexed ${total - Math.max(state.unindexed, unprepared)}/${total}`);
  if (state.searchPending > 0) parts.push(`searching ${total - state.searchPending}/${total}`);
  const secrets = state.secrets;
  if (secrets?.running && secrets.scope === state.scope && asksForSecrets(state.parsed))
    parts.push(`scanning for secrets ${secrets.scanned}/${secrets.total || '?'}`);
  if (state.marks.size > 0) parts.push(`● ${state.marks.size} marked`);
  if (state.showPaths) parts.push('paths');
  return parts.join(' · ');
}

export interface HeaderProps {
  /** The first line (headerText), cut here to the width. */
  text: string;
  width: number;
  query: TextInputState;
  /** The search's syntax error, shown beside the query. */
  error: string | undefined;
  showCursor: boolean;
}

function HeaderView({ text, width, query, error, showCursor }: HeaderProps) {
  return (
    <Box flexDirection="column" height={2}>
      <Text bold wrap="truncate-end">
        {truncateToWidth(text, width)}
      </Text>
      {error ? (
        <Box>
          <Box flexShrink={0}>
            <TextInputView
              state={query}
              width={Math.max(10, Math.floor(width / 2))}
              prompt="> "
              showCursor={showCursor}
            />
          </Box>
          <Text color="red" wrap="truncate-end">
            {truncateToWidth(` ✗ ${sanitizeInline(error)}`, Math.max(0, width - Math.max(10, Math.floor(width / 2))))}
          </Text>
        </Box>
      ) : (
        <TextInputView
          state={query}
          width={width}
          prompt="> "
          placeholder='type to search · "phrase" · re:regex · cwd: name: model: label: after:2w before:30d size:>10mb is:named|empty|fork'
          showCursor={showCursor}
        />
      )}
    </Box>
  );
}

/** Not drawn again while its props are the same: a cursor move leaves them so. */
export const Header = memo(HeaderView);

export function EmptyState({ state, width }: { state: PickerState; width: number }) {
  const list = currentList(state);
  const named = keyFor(state.bindings, 'named', 'browse');
  let text: string;
  let tone: 'dim' | 'error' = 'dim';
  if (!state.parsed.ok) {
    text = `Invalid search: ${sanitizeInline(state.parsed.error)}`;
    tone = 'error';
  } else if (!list || (!list.done && list.sessions.length === 0)) {
    text = list && list.total > 0 ? `Loading sessions… ${list.loaded}/${list.total}` : 'Loading sessions…';
  } else if (list.problem && list.sessions.length === 0) {
    text = `Cannot list sessions: ${sanitizeInline(list.problem)}`;
    tone = 'error';
  } else if (list.sessions.length === 0) {
    // At most half the width: the advice after it (which key shows more) is what matters.
    const where = list.searched
      ? elidePathMiddle(sanitizeInline(list.searched), Math.max(24, Math.floor(width / 2)))
      : 'the sessions folder';
    const missing = list.dirMissing ? ' (the folder does not exist)' : '';
    text =
      state.scope === 'all'
        ? `No pi sessions at all: looked in ${where}${missing}.`
        : `No sessions for this folder (looked in ${where}${missing}).${pressFor(keyFor(state.bindings, 'scope', 'browse'), `for ${state.scope === 'cwd' ? 'sub-folders and then ' : ''}all projects`)}`;
  } else if (state.queuedSearch !== undefined) {
    // The query before found nothing; the typed one is still to be searched.
    text = 'Searching…';
  } else if (state.query.value.trim() !== '') {
    const indexing =
      state.searchPending > 0
        ? ` (still searching ${state.searchPending} sessions)`
        : state.unindexed > 0
          ? ` (the text of ${state.unindexed} sessions is still being indexed)`
          : '';
    text = `No sessions match “${sanitizeInline(state.query.value)}”${state.namedOnly ? ` among named sessions${named ? ` (${named} shows all)` : ''}` : ''}${indexing}.`;
  } else if (state.namedOnly) {
    const rename = keyFor(state.bindings, 'rename', 'browse');
    text = `No named sessions here.${named ? ` ${named} shows all${rename ? `, ${rename} names one` : ''}.` : rename ? ` ${rename} names one.` : ''}`;
  } else {
    text = 'No sessions.';
  }
  // Wrapped at words, never cut: a message's advice comes at its end.
  return (
    <Box width={width} paddingLeft={2}>
      <Text wrap="wrap" color={tone === 'error' ? 'red' : undefined} dimColor={tone === 'dim'}>
        {text}
      </Text>
    </Box>
  );
}

/** ` Press Tab for …` when a key does it; nothing when pi's keybindings.json disabled it. */
function pressFor(key: string | undefined, what: string): string {
  return key === undefined ? '' : ` Press ${key} ${what}.`;
}

export function Footer({ state, width, listLines }: { state: PickerState; width: number; listLines: number }) {
  // A prompt's keys are this line's hints: an older status line must not hide them.
  const prompt = state.mode.kind === 'rename' || (state.mode.kind === 'export' && state.mode.step.kind === 'path');
  if (state.status && !prompt) {
    const { tone, text } = state.status;
    if (tone === 'neutral')
      return (
        <Text wrap="truncate-end" dimColor>
          {truncateToWidth(fitPaths(text, width), width)}
        </Text>
      );
    return (
      <Text wrap="truncate-end" color={tone === 'error' ? 'red' : 'green'}>
        {truncateToWidth(fitPaths(`${tone === 'error' ? '✗' : '✓'} ${text}`, width), width)}
      </Text>
    );
  }
  // The cursor's place, as pi shows it: only when the list is longer than the window.
  // Narrow footers keep their columns for the keys (Enter and → must always show).
  // Not while the typed query's search is still to run: the rows are the query before's.
  const position =
    state.mode.kind === 'browse' && state.queuedSearch === undefined && state.rows.length > listLines && width >= 60
      ? `(${state.cursor + 1}/${state.rows.length})  `
      : '';
  if (dialogShowsKeys(state.mode)) return <Text> </Text>;
  return (
    <Box>
      {position !== '' ? <Text dimColor>{position}</Text> : null}
      <KeyHints bindings={state.bindings} mode={keyModeOf(state.mode)} width={Math.max(0, width - position.length)} />
    </Box>
  );
}
