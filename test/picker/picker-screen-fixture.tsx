/**
 * The picker screen tests' set-up: the folder they run in, a source that lists the sessions a test
 * gives it, and the screen mounted under the input router on a fake terminal, its callbacks mocks.
 */
import { vi } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { type PickerExit, PickerScreen, type PickerScreenProps } from '../../components/picker/PickerScreen.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import type { Locations } from '../../src/store/locations.js';
import type { SessionInfo } from '../../src/store/types.js';
import { renderInk } from '../helpers/ink.js';
import { NOW } from './make-info.js';

export const locations: Locations = {
  cwd: '/home/u/proj',
  agentDir: '/home/u/.pi/agent',
  sessionsRoot: '/home/u/.pi/agent/sessions',
  sessionDir: '/home/u/.pi/agent/sessions/--home-u-proj--',
  customDir: false,
  source: 'default',
};

/**
 * A source whose `list` hands over `sessions` in one batch, with what `more` adds. A function
 * serves a fake whose list changes (a trash, an undo): each listing reads it again. What neither
 * gives is absent, so a screen that calls it fails the test.
 */
export function listingSource(
  sessions: SessionInfo[] | (() => SessionInfo[]),
  more: Partial<Omit<SessionSource, 'list'>> = {},
): SessionSource {
  const current = typeof sessions === 'function' ? sessions : () => sessions;
  const list: SessionSource['list'] = async (_scope, onSessions) => {
    const listed = current();
    onSessions(listed, listed.length, listed.length);
    return { sessions: listed, searched: locations.sessionDir, skipped: 0 };
  };
  return { list, ...more } as SessionSource;
}

export interface PickerMountOptions {
  columns: number;
  rows: number;
  printMode?: boolean;
  bindings?: PickerScreenProps['bindings'];
}

/** The picker over `source` at NOW in `locations`, with `~` as /home/u. */
export function renderPicker(
  source: SessionSource,
  { columns, rows, printMode = false, bindings }: PickerMountOptions,
) {
  const onExit = vi.fn<(r: PickerExit) => void>();
  const onOpenTree = vi.fn();
  const onOpenStats = vi.fn();
  const onOpenLabels = vi.fn();
  const app = renderInk(
    <InputRouter>
      <PickerScreen
        locations={locations}
        printMode={printMode}
        source={source}
        now={() => NOW}
        home="/home/u"
        onExit={onExit}
        onOpenTree={onOpenTree}
        onOpenStats={onOpenStats}
        onOpenLabels={onOpenLabels}
        bindings={bindings}
      />
    </InputRouter>,
    { columns, rows },
  );
  return { app, onExit, onOpenTree, onOpenStats, onOpenLabels };
}
