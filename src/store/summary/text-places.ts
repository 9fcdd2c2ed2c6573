/**
 * Where each piece of a session's searchable message text is, computed in the
 * listing's streaming pass: the same rule as entry-place.ts (active / abandoned / compacted seen
 * from the leaf pi resumes), but from the few facts the summariser can keep per entry (its parent,
 * which entries are compactions and what they keep, which entry each text came from) instead of a
 * whole tree. test/store/text-places.test.ts checks it against entryPlaces on the goldens.
 *
 * The answer is `SessionInfo.textPlaces`: runs over `allMessagesText`, flattened as
 * `[end, place, end, place, …]` (end offsets in UTF-16 units, exclusive, ascending; the space
 * joining two texts belongs to the run after it), `[]` when all of the text is active, which is
 * what nearly every session is and so costs nothing to keep. The branch and compaction summaries
 * (`summaryText`) are placed by the same rule, one `[end, place]` pair and entry id per summary.
 */
import type { SessionInfo } from '../types.js';
import type { EntryPlace } from './entry-place.js';

/** Place codes in `textPlaces` (numbers keep the catalogue's JSON small). */
export const PLACE_CODES: readonly EntryPlace[] = ['active', 'abandoned', 'compacted'];

/**
 * The tracker's resumable state (part of SummaryState): plain JSON, positions instead of repeated
 * ids where it can (the catalogue keeps one per session file).
 */
export interface TextPlacesState {
  /** Entry ids, first seen first (ids are never empty). */
  ids: string[];
  /** Parallel to `ids`: the parent's position in `ids`, -1 for a root, or its id when not seen yet. */
  parents: (number | string)[];
  /** Flattened `[id, firstKeptEntryId or '', '1' when it has a retainedTail else '0', …]`. */
  compactions: string[];
  /** Per text: the position in `ids` of the entry it came from (-1: an entry without an id), and its length. */
  owners: number[];
  lengths: number[];
  /** The same per summary (`summaryText`). */
  summaryOwners: number[];
  summaryLengths: number[];
  /** v1 files: the parsed objects so far and the last entry's synthetic id (see legacyEntry). */
  objects: number;
  legacyPrevious: string | null;
}

export class TextPlaceTracker {
  private readonly parentOf = new Map<string, string>();
  private readonly compactions = new Map<string, { firstKept: string; checkpoint: boolean }>();
  private readonly owners: string[] = [];
  private readonly lengths: number[] = [];
  private readonly summaryOwners: string[] = [];
  private readonly summaryLengths: number[] = [];
  private objects = 0;
  private legacyPrevious: string | null = null;

  static resume(state: TextPlacesState): TextPlaceTracker {
    const t = new TextPlaceTracker();
    const { ids, parents } = state;
    ids.forEach((id, i) => {
      const parent = parents[i];
      t.parentOf.set(
        id,
        typeof parent === 'string' ? parent : parent === undefined || parent < 0 ? '' : (ids[parent] ?? ''),
      );
    });
    for (let i = 0; i + 2 < state.compactions.length; i += 3) {
      t.compactions.set(state.compactions[i]!, {
        firstKept: state.compactions[i + 1]!,
        checkpoint: state.compactions[i + 2] === '1',
      });
    }
    for (const owner of state.owners) t.owners.push(owner < 0 ? '' : (ids[owner] ?? ''));
    t.lengths.push(...state.lengths);
    for (const owner of state.summaryOwners) t.summaryOwners.push(owner < 0 ? '' : (ids[owner] ?? ''));
    t.summaryLengths.push(...state.summaryLengths);
    t.objects = state.objects;
    t.legacyPrevious = state.legacyPrevious;
    return t;
  }

  snapshot(): TextPlacesState {
    const ids = [...this.parentOf.keys()];
    const position = new Map(ids.map((id, i) => [id, i]));
    const parents = ids.map((id): number | string => {
      const parent = this.parentOf.get(id)!;
      return parent === '' ? -1 : (position.get(parent) ?? parent);
    });
    const compactions: string[] = [];
    for (const [id, c] of this.compactions) compactions.push(id, c.firstKept, c.checkpoint ? '1' : '0');
    const owners = this.owners.map((owner) => position.get(owner) ?? -1);
    return {
      ids,
      parents,
      compactions,
      owners,
      lengths: [...this.lengths],
      summaryOwners: this.summaryOwners.map((owner) => position.get(owner) ?? -1),
      summaryLengths: [...this.summaryLengths],
      objects: this.objects,
      legacyPrevious: this.legacyPrevious,
    };
  }

  /** Counts a parsed object after the header (the header is object 0); returns its position. */
  countObject(): number {
    return ++this.objects;
  }

  /**
   * v1 files have no ids: the entry at object position `ordinal` is `#ordinal`, chained to the
   * previous entry like pi's migration. Returns that id.
   */
  legacyEntry(ordinal: number): string {
    const id = `#${ordinal}`;
    this.link(id, this.legacyPrevious);
    this.legacyPrevious = id;
    return id;
  }

  /** v1's firstKeptEntryIndex: an object before this one (pi's migration resolves no other). */
  legacyFirstKept(index: unknown, ordinal: number): string | undefined {
    return typeof index === 'number' && index > 0 && index < ordinal ? `#${index}` : undefined;
  }

  /** An entry and its parent (null for a root). A duplicated id: the last parent wins. */
  link(id: string, parentId: string | null): void {
    this.parentOf.set(id, parentId ?? '');
  }

  compaction(id: string, firstKeptEntryId: unknown, retainedTail: unknown): void {
    this.compactions.set(id, {
      firstKept: typeof firstKeptEntryId === 'string' ? firstKeptEntryId : '',
      checkpoint: Array.isArray(retainedTail),
    });
  }

  /** A text of `length` UTF-16 units pushed to the session's texts, taken from entry `owner`. */
  text(owner: string, length: number): void {
    this.owners.push(owner);
    this.lengths.push(length);
  }

  /** A summary of `length` UTF-16 units pushed to the session's summaries, taken from entry `owner`. */
  summary(owner: string, length: number): void {
    this.summaryOwners.push(owner);
    this.summaryLengths.push(length);
  }

  /**
   * `textPlaces`, `summaryEntries` and `summaryPlaces`, seen from `leafId` (the summariser's leaf:
   * the last entry; v1: the last synthetic id).
   */
  placesSeenFrom(leafId: string | null): Pick<SessionInfo, 'textPlaces' | 'summaryEntries' | 'summaryPlaces'> {
    const place = this.placeOf(this.legacyPrevious ?? leafId);
    const summaryPlaces: number[] = [];
    for (let i = 0, end = 0; i < this.summaryOwners.length; i++) {
      end += this.summaryLengths[i]! + (i > 0 ? 1 : 0);
      summaryPlaces.push(end, PLACE_CODES.indexOf(place(this.summaryOwners[i]!)));
    }
    return { textPlaces: this.runs(place), summaryEntries: [...this.summaryOwners], summaryPlaces };
  }

  /** The runs of `textPlaces`. */
  private runs(place: (id: string) => EntryPlace): number[] {
    const out: number[] = [];
    let end = 0;
    let allActive = true;
    for (let i = 0; i < this.owners.length; i++) {
      end += this.lengths[i]! + (i > 0 ? 1 : 0);
      const code = PLACE_CODES.indexOf(place(this.owners[i]!));
      if (code !== 0) allActive = false;
      if (out.length > 0 && out[out.length - 1] === code) out[out.length - 2] = end;
      else out.push(end, code);
    }
    return allActive ? [] : out;
  }

  /** entry-place.ts's rule over the kept links: the path from the root to the leaf, its latest compaction. */
  private placeOf(leafId: string | null): (id: string) => EntryPlace {
    const path: string[] = [];
    const onPath = new Map<string, number>();
    // A cycle (pi's tree breaks it at the entry it shows as a root) ends the walk where it closes.
    for (let id = leafId ?? ''; id !== '' && this.parentOf.has(id) && !onPath.has(id); id = this.parentOf.get(id)!) {
      onPath.set(id, -1);
      path.push(id);
    }
    path.reverse();
    path.forEach((id, i) => {
      onPath.set(id, i);
    });
    let latest = -1;
    for (let i = 0; i < path.length; i++) if (this.compactions.has(path[i]!)) latest = i;
    // What the latest compaction keeps from before it: from its firstKeptEntryId on, unless it is a
    // checkpoint (a retainedTail stands in for everything before it).
    let keptFrom = latest;
    const compaction = latest === -1 ? undefined : this.compactions.get(path[latest]!);
    if (compaction && !compaction.checkpoint) {
      const at = onPath.get(compaction.firstKept);
      if (at !== undefined && at < latest) keptFrom = at;
    }
    return (id) => {
      const at = onPath.get(id);
      if (at === undefined) return 'abandoned';
      return at < keptFrom ? 'compacted' : 'active';
    };
  }
}
