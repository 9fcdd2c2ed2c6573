/** What kind of row a node is, as far as the filters care (tree-index.ts classifies, filter.ts decides). */
export const K_OTHER = 0;
export const K_USER = 1;
export const K_TOOL_RESULT = 2;
export const K_BOOKKEEPING = 3;
export const K_USAGE = 4;
export const K_PURE_TOOL_CALL = 5;
export const K_SYSTEM = 6;
export const K_FORK = 7;
