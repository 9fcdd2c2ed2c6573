/** The listing summariser's resumable state (see summary.ts and catalog/incremental.ts). */

import type { JsonObject, Problem, UsageTotals } from '../types.js';
import type { TextPlacesState } from './text-places.js';

/**
 * The collector's running state after some whole lines, as plain JSON, so a file that pi only
 * appended to can be summarised by reading the new lines alone (the catalogue's incremental
 * refresh). `SummaryCollector.resume(path, state, text)` continues exactly where `snapshot()` was
 * taken: feeding it the rest of the file gives the same `SessionInfo` as one pass over the whole.
 *
 * The texts are not part of the state (the catalogue already stores them as the search text):
 * the caller hands the previous `allMessagesText`, `summaryText`, `toolTargets` and `toolOutputText`
 * back to `resume`.
 */
export interface SummaryState {
  /** The header fields `finish` and the v1 rule use (never tool output or other bulk). */
  header: JsonObject;
  problems: Problem[];
  bom: boolean;
  sawObject: boolean;
  messageCount: number;
  userMessageCount: number;
  assistantMessageCount: number;
  entryCount: number;
  firstMessage: string;
  /** Whether `texts` was non-empty (the joined text alone cannot tell "" from no text). */
  hasText: boolean;
  /** The same for `summaries` (`summaryText`). */
  hasSummary: boolean;
  name: string | null;
  lastActivity: number | null;
  leafId: string | null;
  labels: [string, string][];
  models: string[];
  /** Tool names called so far (the touched targets and output text are handed back like the text). */
  tools: string[];
  usage: UsageTotals;
  ids: string[];
  /** Flattened `[parent, firstChild, parent, firstChild, …]`: half the JSON of nested pairs. */
  firstChild: string[];
  branchParents: string[];
  /** Parent ids referenced so far that named no known entry (orphan candidates, with repeats). */
  pendingParents: string[];
  /** Where each text came from (text-places.ts). */
  places: TextPlacesState;
}
