/** The session store: the one module that reads and writes pi session files. See API.md. */

export * from './check/index.js';
export {
  buildContext,
  buildContextEntries,
  type ContextOptions,
  entryToMessages,
  type MessageSource,
  type RetainedTailDifference,
  retainedTailOf,
  type SessionContext,
} from './context.js';
export * from './entry.js';
export * from './errors.js';
export * from './export/index.js';
export {
  type ImplausibleValue,
  MAX_COST_PER_USAGE,
  MAX_TOKENS_PER_USAGE,
} from './implausible.js';
export * from './journal/index.js';
export {
  cwdSessionDirs,
  encodeCwd,
  expandPath,
  isPathWithin,
  type LocationInputs,
  type Locations,
  localCwd,
  resolveLocations,
} from './locations.js';
export {
  hostOfPath,
  mapPath,
  mappingFor,
  otherMachineForms,
  type PathMap,
  type PathMapping,
  parsePathMap,
  withMapping,
} from './path-map.js';
export {
  readSessionsSettings,
  SETTINGS_FILE_NAME,
  type SessionsSettings,
  savePathMapping,
  settingsFileOf,
} from './path-settings.js';
export { type PathSuggestion, suggestPathMappings } from './path-suggestions.js';
export { type PiConfig, readPiConfig, type TreeFilterSetting } from './pi-settings.js';
export * from './read/index.js';
export { looksLikePath, resolveSessionArg } from './resolve.js';
export * from './stats/index.js';
export * from './summary/index.js';
export * from './sync/index.js';
export * from './trash/index.js';
export {
  activePath,
  branchPointCount,
  buildTree,
  childrenOf,
  getBranch,
  parentOf,
  type SessionTree,
  sessionUsage,
  subtreeUsage,
} from './tree.js';
export * from './types.js';
export * from './undo/index.js';
export * from './write/index.js';
