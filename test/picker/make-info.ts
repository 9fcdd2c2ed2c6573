/** Hand-made SessionInfo objects for picker tests. */
import type { SessionInfo } from '../../src/store/types.js';

export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
export const MIN = 60_000;
export const DAY = 86_400_000;

export function makeInfo(over: Partial<SessionInfo> & { path: string; ageMs?: number }): SessionInfo {
  const { ageMs = DAY, ...rest } = over;
  const modified = new Date(NOW - ageMs);
  return {
    id: over.path.replace(/\W/g, ''),
    cwd: '/home/u/proj',
    name: undefined,
    parentSessionPath: undefined,
    created: new Date(modified.getTime() - 60 * MIN),
    modified,
    messageCount: 4,
    firstMessage: `first prompt of ${over.path}`,
    allMessagesText: `first prompt of ${over.path} and a reply`,
    textPlaces: [],
    summaryText: '',
    summaryEntries: [],
    summaryPlaces: [],
    size: 10_000,
    mtimeMs: modified.getTime(),
    version: 3,
    entryCount: 6,
    userMessageCount: 2,
    assistantMessageCount: over.models && over.models.length === 0 ? 0 : 2,
    branchCount: 0,
    leafId: 'leaf',
    labels: [],
    models: ['anthropic/claude'],
    tools: [],
    toolTargets: '',
    toolOutputText: '',
    usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: 0.01 },
    problems: [],
    ...rest,
  };
}
