/**
 * Tree search: nodes (entries and retained messages) matching every whitespace-separated token
 * of the query, case-insensitively, in their search text or label.
 */
import type { TreeIndex } from './tree-index.js';
import { searchTextOf } from './tree-index.js';

export interface SearchResult {
  /** The query as typed. */
  readonly query: string;
  readonly tokens: readonly string[];
  /** Node numbers that match every token, ascending. */
  readonly matches: Int32Array;
  /** 1 for matching nodes. */
  readonly isMatch: Uint8Array;
  /** The index the result was computed on (results are only reused on the same index). */
  readonly index: TreeIndex;
}

export function searchTokens(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '');
}

function nodeMatches(index: TreeIndex, num: number, tokens: readonly string[]): boolean {
  const text = searchTextOf(index, num);
  const label = index.tree.labels.get(index.entries[num]!.id);
  const labelLower = label === undefined ? undefined : label.toLowerCase();
  for (const token of tokens) {
    if (!text.includes(token) && (labelLower === undefined || !labelLower.includes(token))) return false;
  }
  return true;
}

/**
 * Entries matching every whitespace-separated token (case-insensitive substrings of the search
 * text or the label). When `previous` was computed on the same index for a query this one
 * extends (typing), only its matches are re-tested: extending a query can only narrow it.
 * Returns undefined for an empty query.
 */
export function search(index: TreeIndex, query: string, previous?: SearchResult): SearchResult | undefined {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return undefined;
  const isMatch = new Uint8Array(index.nodeCount);
  const found: number[] = [];
  const narrowing =
    previous !== undefined && previous.index === index && query.toLowerCase().startsWith(previous.query.toLowerCase());
  if (narrowing) {
    for (const n of previous.matches) {
      if (nodeMatches(index, n, tokens)) {
        isMatch[n] = 1;
        found.push(n);
      }
    }
  } else {
    for (let n = 0; n < index.nodeCount; n++) {
      if (nodeMatches(index, n, tokens)) {
        isMatch[n] = 1;
        found.push(n);
      }
    }
  }
  return { query, tokens, matches: Int32Array.from(found), isMatch, index };
}
