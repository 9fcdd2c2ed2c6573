/**
 * The picker's search: the language (query-language.ts), matching (query-engine.ts) and snippets
 * (query-snippet.ts), re-exported as one module. The syntax users read is query-syntax.ts.
 */
export * from './query-language.js';
export * from './query-engine.js';
export { isTextPrepared, normalizeText, prepareTexts, preparedTextOf } from './query-text.js';
export * from './query-snippet.js';
