/**
 * secretlint itself: its core and its recommended rule set, the only module that imports them.
 * secrets.ts loads it with a dynamic import the first time a scan runs, and the bundle makes it a
 * chunk of its own (scripts/bundle.mjs): the rules are a quarter of the app's code, and a start-up
 * that never scans must not read, parse or run them.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';

/**
 * The recommended preset's rules, less its comment filter: a `secretlint-disable` line in a
 * session is text someone (or a model) wrote, and must not hide the secret next to it. (The
 * preset's own `disabled` option does not reach a rule inside it, so the rules are listed here.)
 */
const CONFIG = {
  rules: recommended.rules
    .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/** Each rule's id and source: what a kept scan result names (secrets.ts hashes it into SECRET_RULES_ID). */
export const RULE_SOURCES = CONFIG.rules.map(({ id, rule }) => `${id}\n${String(rule.create)}`).join('\n');

/**
 * secretlint's core marks the global performance timeline before and after every rule on every
 * lint call, and its profiler keeps each mark and measure in arrays of its own, searching them for
 * each new mark; nothing reads or clears either. Over a store scan (a lint call for each session
 * that holds a candidate) both grow without end and each call is slower than the one before it (500
 * calls: 30 s, against 0.4 s without the marks). Clearing the timeline after a call would not
 * empty the profiler's arrays, and it races the profiler's measure of each mark pair, run only once
 * the performance observer has seen the marks: a measure of a cleared mark throws in a promise no
 * one handles, which ends the process. So the profiler is given a timeline that keeps nothing.
 */
const NO_TIMELINE = {
  mark: (): undefined => undefined,
  measure: (): undefined => undefined,
};
// Its `perf` is private in secretlint's types, a plain field at run time (test/export/secret-timeline.test.ts checks it).
(secretLintProfiler as unknown as { perf: typeof NO_TIMELINE }).perf = NO_TIMELINE;

/** What secretlint reports of one finding, as secrets.ts reads it. */
export interface RuleMatch {
  range: readonly [number, number];
  /** The kind (GITHUB_TOKEN, AWSSecretAccessKey, PrivateKey…). */
  messageId: string;
  /** The rule's own captures (KEY, TOKEN, URI…). */
  data?: unknown;
}

/** Every finding of the rules in `text`. */
export async function lintText(text: string): Promise<RuleMatch[]> {
  const result = await lintSource({
    source: { content: text, filePath: '/session.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  return result.messages;
}
