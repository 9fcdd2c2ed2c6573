/**
 * The picker's reads in the background, keys first: the search text prepared in idle slices,
 * and the preview of the row the cursor rests on.
 */
import { type MutableRefObject, useEffect, useRef, useState } from 'react';
import { keyFor } from '../../src/keymap/keymap.js';
import type { ConflictPreview } from '../../src/picker/conflict-preview.js';
import { type ConflictFolding, conflictFolding } from '../../src/picker/conflict-rows.js';
import { prepareTexts } from '../../src/picker/query.js';
import { currentList, type PickerState } from '../../src/picker/reducer.js';
import type { PreviewData, SessionSource } from '../../src/picker/session-source.js';
import type { ConflictAdds, SessionInfo } from '../../src/store/index.js';
import { keyPauseMs } from '../../src/terminal/key-pause.js';

/** Idle-time text preparation: slices short enough that a keystroke never waits noticeably. */
const PREPARE_SLICE_MS = 12;
const PREPARE_NOTIFY_MS = 250;
/** Preview reads wait until the cursor rests; longer for big files. */
const previewDelay = (size: number): number => (size > 2 * 1024 * 1024 ? 200 : 50);

/**
 * Prepares the search text in idle slices so the first full-text search is instant; returns how
 * many sessions are still unprepared. It starts with the first rows (a warm start paints them all
 * from the catalogue; the search already runs over them), newest first, and tells `onPrepared`
 * after the first slice, so a word typed at once finds hits in the newest sessions first, then
 * only every PREPARE_NOTIFY_MS: a render per slice would starve the event loop. A row the listing
 * replaces is prepared again. `pending` says whether any text is left (a typed key prepares some first).
 */
export function usePreparedTexts(
  sessions: readonly SessionInfo[] | undefined,
  pending: MutableRefObject<boolean>,
  onPrepared: () => void,
): number {
  const [unprepared, setUnprepared] = useState(0);
  const notify = useRef(onPrepared);
  notify.current = onPrepared;
  useEffect(() => {
    if (!sessions) return;
    pending.current = true;
    let timer: NodeJS.Immediate | undefined;
    let paused: NodeJS.Timeout | undefined;
    let lastNotify = 0;
    const step = (): void => {
      // Typing first: the text waits until the keys have been quiet for a moment.
      const wait = keyPauseMs();
      if (wait > 0) {
        paused = setTimeout(step, wait);
        return;
      }
      const remaining = prepareTexts(sessions, PREPARE_SLICE_MS);
      if (remaining === 0) pending.current = false;
      const t = Date.now();
      if (remaining === 0 || t - lastNotify > PREPARE_NOTIFY_MS) {
        lastNotify = t;
        setUnprepared(remaining);
        notify.current();
      }
      if (remaining > 0) timer = setImmediate(step);
    };
    timer = setImmediate(step);
    return () => {
      if (timer) clearImmediate(timer);
      if (paused) clearTimeout(paused);
    };
  }, [sessions, pending]);
  return unprepared;
}

/** The preview of `selected` (undefined: none wanted), read once the cursor rests on it. */
export function usePreview(
  source: SessionSource,
  selected: SessionInfo | undefined,
): { key: SessionInfo; data: PreviewData } | undefined {
  const [preview, setPreview] = useState<{ key: SessionInfo; data: PreviewData } | undefined>();
  useEffect(() => {
    if (!selected) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      source
        .preview(selected)
        .then((data) => {
          if (!cancelled) setPreview({ key: selected, data });
        })
        .catch(() => undefined);
    }, previewDelay(selected.size));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [selected, source]);
  return preview;
}

type FoldedGroup = ConflictFolding['groups'] extends ReadonlyMap<string, infer G> ? G : never;

/**
 * What each file of the selected row's conflict group adds (undefined: no group, or not read
 * yet), read once the cursor rests, like the preview. A source that cannot tell: never read.
 */
function useConflictAdds(
  source: SessionSource,
  original: SessionInfo | undefined,
  folded: FoldedGroup | undefined,
): { key: FoldedGroup; adds: ConflictAdds } | undefined {
  const [read, setRead] = useState<{ key: FoldedGroup; adds: ConflictAdds } | undefined>();
  useEffect(() => {
    if (!original || !folded || !source.conflictAdds) return;
    let cancelled = false;
    const files = [original, ...folded.copies];
    const timer = setTimeout(
      () => {
        source.conflictAdds!(folded.group, files)
          .then((adds) => {
            if (!cancelled) setRead({ key: folded, adds });
          })
          .catch(() => undefined);
      },
      previewDelay(files.reduce((n, f) => n + f.size, 0)),
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [original, folded, source]);
  return read && read.key === folded ? read : undefined;
}

/** The preview's conflict section for the selected row (undefined: it has no conflict copies). */
export function useConflictPreview(
  source: SessionSource,
  state: PickerState,
  selected: SessionInfo | undefined,
): ConflictPreview | undefined {
  const folded = selected ? conflictFolding(currentList(state)?.sessions ?? []).groups.get(selected.path) : undefined;
  const read = useConflictAdds(source, selected, state.preview ? folded : undefined);
  if (!folded) return undefined;
  const mergeKey = keyFor(state.bindings, 'merge', 'browse') ?? '';
  return { files: folded.copies.length + 1, ...(read ? { adds: read.adds } : {}), mergeKey };
}
