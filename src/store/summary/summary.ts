/**
 * One listing row per file: pi 1.6's `buildSessionInfo` (session-format.md §13) plus the extras a
 * browser needs, computed in one streaming pass.
 *
 * Speed: most bytes of a session are tool output. A line that starts like a pi-written toolResult
 * message is not parsed: its id and parent come from a tiny parse of the line's prefix, which is
 * all the listing needs from it (fast-paths.ts). Lines that might carry usage, or that look glued or torn, take the
 * full parse, so the shortcut never changes an answer.
 *
 * Memory: a line longer than SUMMARY_LINE_BYTES (a huge tool output) is never buffered whole: it
 * streams through a digest that keeps its first bytes and a few facts (line-prefix.ts). A long
 * toolResult line without usage gives the same answer as a full parse; any other long line is
 * counted from its first bytes and reported as an `oversized-line` problem.
 *
 * Only a search reads the message text, its places and the tool facts: a listing for rows alone
 * (`on-demand`) skips them and reads them from the file if one is used (search-fields.ts).
 */

import { addUsage, assistantModel, emptyUsage, isObject, textOfContent } from '../entry.js';
import { digestingSink } from '../read/line-prefix.js';
import {
  givingUp,
  HEADER_SEARCH_BYTES,
  hasBom,
  headerRejection,
  isBlank,
  lineEntries,
  NO_HEADER_IN_BOUND,
  parseLine,
  READ_CHUNK_BYTES,
} from '../read/lines.js';
import { notASession } from '../read/not-a-session.js';
import { type ScanOptions, scanFromSync } from '../read/scan.js';
import { replayLabel } from '../tree.js';
import type { JsonObject, NotASession, Problem, SearchTexts, SessionHeader, SessionInfo } from '../types.js';
import { countLongLine, countToolResultLine, type SummaryCounts } from './fast-paths.js';
import { addFileProblems, modifiedOf } from './file-facts.js';
import { parseWithoutIds } from './id-cut.js';
import {
  type ListedFields,
  noSearchFields,
  retainedTexts,
  type SearchFields,
  type SearchFieldsMode,
  withSearchFields,
  withSearchFieldsOnDemand,
} from './search-fields.js';
import type { SummaryState } from './state.js';
import { TextPlaceTracker } from './text-places.js';
import { ToolFacts } from './tool-facts.js';

export type { SearchFieldsMode } from './search-fields.js';
export type { SummaryState } from './state.js';

/** Longer lines are digested as they stream past instead of being buffered (see the top). */
export const SUMMARY_LINE_BYTES = 8 * 1024 * 1024;

const HEADER_FIELDS = ['type', 'id', 'version', 'timestamp', 'cwd', 'parentSession'] as const;

export class SummaryCollector implements SummaryCounts {
  header: SessionHeader | undefined;
  rejected: NotASession['reason'] | undefined;
  rejectMessage = '';
  readonly problems: Problem[] = [];
  private bom = false;
  private sawObject = false;
  messageCount = 0;
  userMessageCount = 0;
  assistantMessageCount = 0;
  entryCount = 0;
  firstMessage = '';
  readonly texts: string[] = [];
  /** The branch and compaction summaries (`summaryText`), apart from pi's message text. */
  readonly summaries: string[] = [];
  /** `name` stays undefined until a session_info; pi then lets the last one win. */
  name: string | undefined;
  lastActivity: number | undefined;
  leafId: string | null = null;
  readonly labels = new Map<string, string>();
  readonly models: string[] = [];
  readonly usage = emptyUsage();
  /** Tool names, touched paths and commands, bounded output text (tool-facts.ts); names alone on demand. */
  toolFacts: ToolFacts;
  /** Where each text came from, for `textPlaces` (text-places.ts); untouched on demand. */
  places = new TextPlaceTracker();
  /** Whether the search fields are gathered here (`with-listing`). */
  private readonly gathers: boolean;
  private readonly ids = new Set<string>();
  private readonly firstChild = new Map<string, string>();
  private readonly branchParents = new Set<string>();
  private readonly parents: string[] = [];

  /** Bytes of the lines before the header (bounded by HEADER_SEARCH_BYTES). */
  private bytesBeforeHeader = 0;

  constructor(
    private readonly path: string,
    mode: SearchFieldsMode = 'with-listing',
  ) {
    this.gathers = mode === 'with-listing';
    this.toolFacts = new ToolFacts(this.gathers);
  }

  /** The scan options that feed this collector, bound each line and stop at a non-session. */
  scanOptions(): ScanOptions {
    return {
      onLine: this.onLine,
      stop: () => this.rejected !== undefined,
      maxLineBytes: () => (this.header ? SUMMARY_LINE_BYTES : HEADER_SEARCH_BYTES),
      onLongLine: (lineNo) =>
        this.header
          ? digestingSink(lineNo, (line) => {
              if (!this.rejected) countLongLine(this, line);
            })
          : givingUp(() => this.reject('no-header', NO_HEADER_IN_BOUND)),
    };
  }

  private reject(reason: NotASession['reason'], message: string): void {
    if (this.rejected) return;
    this.rejected = reason;
    this.rejectMessage = message;
  }

  /**
   * The state after the lines fed so far (call it at a line boundary, before `finish`, which
   * adds file-level problems). Copies everything: later lines never change a snapshot.
   */
  snapshot(): SummaryState {
    const header: JsonObject = {};
    if (this.header) for (const key of HEADER_FIELDS) if (key in this.header) header[key] = this.header[key];
    const firstChild: string[] = [];
    for (const [parent, child] of this.firstChild) firstChild.push(parent, child);
    return {
      header,
      problems: this.problems.map((p) => ({ ...p })),
      bom: this.bom,
      sawObject: this.sawObject,
      messageCount: this.messageCount,
      userMessageCount: this.userMessageCount,
      assistantMessageCount: this.assistantMessageCount,
      entryCount: this.entryCount,
      firstMessage: this.firstMessage,
      hasText: this.texts.length > 0,
      hasSummary: this.summaries.length > 0,
      name: this.name ?? null,
      lastActivity: this.lastActivity ?? null,
      leafId: this.leafId,
      labels: [...this.labels],
      models: [...this.models],
      tools: [...this.toolFacts.tools],
      usage: { ...this.usage },
      ids: [...this.ids],
      firstChild,
      branchParents: [...this.branchParents],
      pendingParents: this.parents.filter((parent) => !this.ids.has(parent)),
      places: this.places.snapshot(),
    };
  }

  /**
   * A collector that continues from `state` (taken after a header was seen and nothing was
   * rejected). `previous` holds the texts the snapshot's lines produced (`allMessagesText`,
   * `summaryText`, `toolTargets`, `toolOutputText`): the state does not repeat them.
   */
  static resume(path: string, state: SummaryState, previous: SearchTexts): SummaryCollector {
    const text = previous.allMessagesText;
    const c = new SummaryCollector(path);
    c.header = { ...state.header } as SessionHeader;
    c.problems.push(...state.problems.map((p) => ({ ...p })));
    c.bom = state.bom;
    c.sawObject = state.sawObject;
    c.messageCount = state.messageCount;
    c.userMessageCount = state.userMessageCount;
    c.assistantMessageCount = state.assistantMessageCount;
    c.entryCount = state.entryCount;
    c.firstMessage = state.firstMessage;
    // join(' ') of [old texts…, new…] equals the old joined text, a space, the new ones joined.
    if (state.hasText) c.texts.push(text);
    if (state.hasSummary) c.summaries.push(previous.summaryText);
    c.name = state.name ?? undefined;
    c.lastActivity = state.lastActivity ?? undefined;
    c.leafId = state.leafId;
    for (const [target, label] of state.labels) c.labels.set(target, label);
    c.models.push(...state.models);
    c.toolFacts = ToolFacts.resume(state.tools, previous.toolTargets, previous.toolOutputText);
    Object.assign(c.usage, state.usage);
    for (const id of state.ids) c.ids.add(id);
    for (let i = 0; i + 1 < state.firstChild.length; i += 2)
      c.firstChild.set(state.firstChild[i]!, state.firstChild[i + 1]!);
    for (const parent of state.branchParents) c.branchParents.add(parent);
    // Only unresolved parents matter for the orphan count at `finish`; resolved ones stay resolved.
    c.parents.push(...state.pendingParents);
    c.places = TextPlaceTracker.resume(state.places);
    return c;
  }

  readonly onLine = (buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean): void => {
    if (this.rejected) return;
    if (!this.header) {
      this.bytesBeforeHeader += end - start + 1;
      if (this.bytesBeforeHeader > HEADER_SEARCH_BYTES) {
        this.reject('no-header', NO_HEADER_IN_BOUND);
        return;
      }
    }
    if (lineNo === 1 && hasBom(buf, start, end)) {
      this.bom = true;
      start += 3;
    }
    if (isBlank(buf, start, end)) return;
    if (this.header && terminated && countToolResultLine(this, buf, start, end)) return;
    const parsed = parseLine(buf, start, end, lineNo, this.problems, parseWithoutIds);
    for (const value of lineEntries(parsed, lineNo, terminated, this.sawObject, this.problems)) this.add(value, lineNo);
  };

  /** An entry of the tree: its id, its parent (orphans and branch points are counted from these). */
  noteNode(id: string, parentId: string | null): void {
    this.ids.add(id);
    this.leafId = id;
    if (this.gathers) this.places.link(id, parentId);
    if (parentId !== null && parentId !== id) {
      this.parents.push(parentId);
      const first = this.firstChild.get(parentId);
      if (first === undefined) this.firstChild.set(parentId, id);
      else if (first !== id) this.branchParents.add(parentId);
    }
  }

  private add(value: JsonObject, lineNo: number): void {
    if (!this.header) {
      this.sawObject = true;
      const rejection = headerRejection(value);
      if (rejection) {
        this.reject(this.bom ? 'bom' : 'no-header', rejection);
        return;
      }
      this.header = value as SessionHeader;
      return;
    }
    const type = value['type'];
    const legacy = typeof this.header['version'] !== 'number' || this.header['version'] < 2;
    const ordinal = this.places.countObject();
    if (type === 'session') return;
    this.entryCount++;
    const id = value['id'];
    let owner = legacy && this.gathers ? this.places.legacyEntry(ordinal) : '';
    if (typeof id === 'string' && id !== '') {
      const parentId = value['parentId'];
      this.noteNode(id, typeof parentId === 'string' ? parentId : null);
      if (!legacy) owner = id;
    } else if (!legacy) {
      this.problems.push({ line: lineNo, kind: 'missing-id', message: 'entry has no id; skipped' });
    } else {
      // v1 files have no ids: every entry chains to the previous one (pi's migration).
      this.leafId = `#${lineNo}`;
    }
    if (type === 'session_info') {
      const name = value['name'];
      this.name = typeof name === 'string' ? name.trim() || undefined : undefined;
    } else if (type === 'label') {
      replayLabel(this.labels, undefined, value);
    } else if (type === 'compaction' || type === 'branch_summary' || type === 'usage') {
      addUsage(this.usage, value['usage']);
      const summary = value['summary'];
      if (this.gathers && type !== 'usage' && typeof summary === 'string' && summary !== '') {
        this.summaries.push(summary);
        this.places.summary(owner, summary.length);
      }
      // A checkpoint's retained messages are searchable text of the session (§8.4); their usage
      // is not counted: the entries they copy spent it.
      if (type === 'compaction' && this.gathers) {
        const firstKept = legacy
          ? this.places.legacyFirstKept(value['firstKeptEntryIndex'], ordinal)
          : value['firstKeptEntryId'];
        this.places.compaction(owner, firstKept, value['retainedTail']);
        for (const text of retainedTexts(value['retainedTail'])) this.pushText(owner, text);
      }
    }
    if (type !== 'message') return;
    this.messageCount++;
    const message = value['message'];
    if (!isObject(message)) {
      this.problems.push({
        line: lineNo,
        kind: 'bad-message',
        message: 'message entry without a message object (pi 1.6 hides this session)',
      });
      return;
    }
    const role = message['role'];
    if (role === 'assistant' || role === 'toolResult') addUsage(this.usage, message['usage']);
    if (role === 'assistant') {
      this.assistantMessageCount++;
      const model = assistantModel(message);
      if (model && !this.models.includes(model)) this.models.push(model);
      this.toolFacts.addCalls(message['content']);
    }
    // Tool output and commands feed a search alone (the tool names above are a row's field).
    if (this.gathers && role === 'toolResult') {
      // Before about 2025-11 a plain `output` string held the result.
      const text = textOfContent(message['content']);
      this.toolFacts.addOutput(text !== '' ? text : typeof message['output'] === 'string' ? message['output'] : '');
    } else if (this.gathers && role === 'bashExecution') {
      if (typeof message['command'] === 'string') this.toolFacts.addTarget(message['command']);
      if (typeof message['output'] === 'string') this.toolFacts.addOutput(message['output']);
    }
    if (role !== 'user' && role !== 'assistant') return;
    if (role === 'user') this.userMessageCount++;
    if (!('content' in message)) return;
    const stamp = message['timestamp'];
    const activity = typeof stamp === 'number' ? stamp : new Date(value['timestamp'] as string).getTime();
    if (!Number.isNaN(activity)) this.lastActivity = Math.max(this.lastActivity ?? 0, activity);
    // Without the search text, a message's text is wanted only while it may be the first prompt.
    if (!this.gathers && (role !== 'user' || this.firstMessage)) return;
    const text = textOfContent(message['content']);
    if (!text) return;
    if (this.gathers) this.pushText(owner, text);
    if (!this.firstMessage && role === 'user') this.firstMessage = text;
  }

  private pushText(owner: string, text: string): void {
    this.texts.push(text);
    this.places.text(owner, text.length);
  }

  finish(size: number, mtimeMs: number, endsWithNewline: boolean): SessionInfo | NotASession {
    if (this.rejected) return notASession(this.path, this.rejected, this.rejectMessage);
    const header = this.header;
    if (!header) {
      return size === 0
        ? notASession(this.path, 'empty', 'empty file')
        : notASession(this.path, 'no-header', 'no JSON line: not a pi session');
    }
    let orphans = 0;
    for (const parent of this.parents) if (!this.ids.has(parent)) orphans++;
    addFileProblems(this.problems, { bom: this.bom, size, endsWithNewline, orphans });
    const version = typeof header.version === 'number' ? header.version : 1;
    const row: ListedFields = {
      path: this.path,
      id: header.id,
      cwd: typeof header.cwd === 'string' ? header.cwd : '',
      name: this.name,
      parentSessionPath: typeof header.parentSession === 'string' ? header.parentSession : undefined,
      created: new Date(header.timestamp as string),
      modified: modifiedOf(this.lastActivity, header, mtimeMs),
      messageCount: this.messageCount,
      firstMessage: this.firstMessage || '(no messages)',
      size,
      mtimeMs,
      version,
      entryCount: this.entryCount,
      userMessageCount: this.userMessageCount,
      assistantMessageCount: this.assistantMessageCount,
      branchCount: this.branchParents.size,
      leafId: this.leafId?.startsWith('#') ? null : this.leafId,
      labels: [...this.labels.values()],
      models: this.models,
      tools: this.toolFacts.tools,
      usage: this.usage,
      problems: this.problems,
    };
    if (!this.gathers) return withSearchFieldsOnDemand(row, searchFieldsOfFile);
    return withSearchFields(row, {
      allMessagesText: this.texts.join(' '),
      summaryText: this.summaries.join(' '),
      ...this.places.placesSeenFrom(this.leafId),
      toolTargets: this.toolFacts.toolTargets,
      toolOutputText: this.toolFacts.toolOutputText,
    });
  }
}

/** A row's search fields read again from its file (for `on-demand` rows). */
function searchFieldsOfFile(path: string): SearchFields {
  const info = summarizeFileSync(path);
  if ('ok' in info) return noSearchFields();
  const { allMessagesText, textPlaces, summaryText, summaryEntries, summaryPlaces, toolTargets, toolOutputText } = info;
  return { allMessagesText, textPlaces, summaryText, summaryEntries, summaryPlaces, toolTargets, toolOutputText };
}

let sharedChunk: Buffer | undefined;

/**
 * Summarises one file; never throws for file problems. Synchronous, reusing one read buffer: a
 * file takes about a millisecond, so the listing interleaves files with event-loop turns instead
 * of paying the thread-pool round trip of async reads for every chunk.
 */
export function summarizeFileSync(path: string, mode: SearchFieldsMode = 'with-listing'): SessionInfo | NotASession {
  const collector = new SummaryCollector(path, mode);
  sharedChunk ??= Buffer.allocUnsafe(READ_CHUNK_BYTES);
  const scanned = scanFromSync(path, { ...collector.scanOptions(), chunk: sharedChunk });
  if ('ok' in scanned) return scanned;
  return collector.finish(scanned.size, scanned.mtimeMs, scanned.endsWithNewline);
}
