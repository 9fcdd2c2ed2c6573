/** The navigator's filters, named as pi's `treeFilterMode` setting names them (its values, so not camelCase). */
export type FilterMode = 'default' | 'no-tools' | 'user-only' | 'labeled-only' | 'all';
