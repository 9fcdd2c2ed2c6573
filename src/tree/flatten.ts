/**
 * Flattening and layout of the session tree for the navigator, in three cached stages so each
 * interaction redoes only what it must:
 *
 *   TreeIndex  (tree-index.ts, per session tree + leaf): numeric node ids, children in pi's
 *              order, the active path, node kinds (entries, then compactions' retained
 *              messages); lazily cached row and search texts; cached filter masks (filter.ts).
 *   Forest     (forest.ts, per filter + search (search.ts)): the visible nodes re-parented to
 *              their nearest visible ancestor (pi-ui-reference §2.3 rule 6), children in
 *              display order.
 *   Layout     (layout.ts, per forest + folds): the rows with pi's indentation, connectors and
 *              gutters, and the segment jumps.
 *
 * Moving the cursor touches none of them; a fold toggle re-runs only the layout (O(visible));
 * a filter change reuses its cached mask; a search keystroke that extends the query only re-tests
 * the previous matches. Every walk is iterative so a 1,000,000-entry chain cannot overflow the
 * stack, and per-node state lives in typed arrays so 100k-entry sessions stay fast.
 */

export * from './filter.js';
export * from './forest.js';
export * from './layout.js';
export * from './search.js';
export * from './tree-index.js';
