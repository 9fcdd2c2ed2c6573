/**
 * The query terms answered from a session's own fields (cwd:, host:, name:, model:, label:, tool:,
 * file:, after:, before:, size:, is:, has:): cheap tests that narrow the list before any text is
 * scanned (query-engine.ts runs them first).
 */
import type { SessionInfo } from '../store/index.js';
import { isOwnLastWrite } from './own-write.js';
import { isRankingTerm, type QueryTerm, type TokenTerm } from './query-language.js';
import { touchedOf } from './query-text.js';

/** Terms answered from the session's own fields alone (cheap): they narrow the list first. */
export function isFieldFilter(term: QueryTerm): term is TokenTerm {
  return !isRankingTerm(term) && term.kind !== 'out' && term.kind !== 'in' && term.kind !== 'not' && term.kind !== 'or';
}

export function passesFilter(
  info: SessionInfo,
  term: QueryTerm,
  secrets: ReadonlyMap<string, number> | undefined,
  hosts: ReadonlyMap<SessionInfo, string>,
): boolean {
  switch (term.kind) {
    case 'has':
      return (secrets?.get(info.path) ?? 0) > 0;
    case 'field': {
      if (term.field === 'host') return hosts.get(info)?.includes(term.text) ?? false;
      if (term.field === 'cwd') return info.cwd.toLowerCase().includes(term.text);
      if (term.field === 'name') return (info.name ?? '').toLowerCase().includes(term.text);
      const list =
        term.field === 'model'
          ? info.models
          : term.field === 'label'
            ? info.labels
            : term.field === 'tool'
              ? info.tools
              : undefined;
      // `file:`: the touched paths and commands are one lower-cased text, a line each.
      if (list === undefined) return touchedOf(info).includes(term.text);
      return list.some((v) => v.toLowerCase().includes(term.text));
    }
    case 'after':
      return info.modified.getTime() >= term.ms;
    case 'before':
      return info.modified.getTime() < term.ms;
    case 'size':
      switch (term.op) {
        case '>':
          return info.size > term.bytes;
        case '<':
          return info.size < term.bytes;
        case '>=':
          return info.size >= term.bytes;
        case '<=':
          return info.size <= term.bytes;
      }
      return false;
    case 'is':
      switch (term.flag) {
        case 'named':
          return info.name !== undefined && info.name.trim() !== '';
        // "No assistant reply": the store lists every model that answered, so none means the
        // session never got a reply (an aborted first prompt, or a file with no messages).
        case 'empty':
          return info.assistantMessageCount === 0;
        case 'fork':
          return info.parentSessionPath !== undefined;
        case 'live':
          return !isOwnLastWrite(info) && (info.modified.getTime() >= term.sinceMs || info.mtimeMs >= term.sinceMs);
      }
      return false;
    default:
      return true;
  }
}
