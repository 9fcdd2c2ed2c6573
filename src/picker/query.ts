/**
 * The picker's search: the language (query-language.ts), matching (query-engine.ts) and snippets
 * (query-snippet.ts), re-exported as one module. The syntax users read is query-syntax.ts.
 */

export * from './query-engine.js';
export * from './query-language.js';
export * from './query-snippet.js';
export { isTextPrepared, normalizeText, preparedTextOf, prepareTexts } from './query-text.js';
export * from './search-index.js';
