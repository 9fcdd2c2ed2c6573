/**
 * One realistic pi session, played as a user and a model would: setup (model, thinking level),
 * turns of prompt → tool calls → tool outputs → answer, model and thinking switches, `!cmd` bash
 * runs, labels (set, moved, cleared), a name (sometimes renamed), compactions every few turns in
 * about a third of the sessions, and in-place branches the way pi makes them (a re-edited
 * prompt or a return to an earlier answer; about half with a `branch_summary`).
 */
import {
  answer,
  firstPrompt,
  followUp,
  type Model,
  pickModel,
  sessionName,
  THINKING_LEVELS,
  thought,
  toolCall,
  toolOutput,
  topic,
} from './content.js';
import { assistantMessage, toolResultMessage, type Usage, userMessage } from './messages.js';
import type { Rng } from './random.js';
import type { Line, SessionWriter } from './session-writer.js';

export interface SessionPlan {
  /** Stop once the session has this many entries (header excluded)... */
  entries: number;
  /** ...or, when set, once its JSONL text is this many bytes. */
  bytes?: number;
  /** Median size of read/bash outputs in bytes (heavy-tailed, capped like pi at 50 KB). */
  toolBytes: number;
  /** A reasoning model throughout (thinking never off): the long working session of the bench. */
  reasoning?: boolean;
}

const TOOL_OUTPUT_CAP = 50 * 1024;

interface Traits {
  model: Model;
  thinking: string;
  branchy: boolean;
  labels: boolean;
  named: boolean;
  /** Turns between compactions (Infinity: never), standing in for pi's context-size trigger. */
  compactEvery: number;
}

function traits(rng: Rng, reasoning: boolean): Traits {
  return {
    model: pickModel(rng),
    thinking: reasoning ? rng.pick(THINKING_LEVELS.slice(2)) : rng.pick(THINKING_LEVELS),
    branchy: rng.chance(0.45),
    labels: rng.chance(0.3),
    named: rng.chance(0.34),
    compactEvery: rng.chance(0.35) ? rng.int(4, 12) : Number.POSITIVE_INFINITY,
  };
}

/** Plays turns into `writer` until the plan's size is reached. */
export function playSession(writer: SessionWriter, rng: Rng, plan: SessionPlan): void {
  const t = traits(rng, plan.reasoning ?? false);
  const bytesTarget = plan.bytes;
  let bytes = 0;
  const done = (): boolean => (bytesTarget !== undefined ? bytes >= bytesTarget : writer.entryCount >= plan.entries);
  const track = (): void => {
    if (bytesTarget !== undefined)
      bytes += Buffer.byteLength(JSON.stringify(writer.lines[writer.lines.length - 1])) + 1;
  };
  if (writer.entryCount === 0) {
    writer.modelChange(t.model.provider, t.model.modelId);
    track();
    if (t.thinking !== 'off' || rng.chance(0.5)) {
      writer.thinkingLevelChange(t.thinking);
      track();
    }
  }
  const subject = topic(rng);
  let turn = 0;
  let context = 0;
  let renamed = 0;
  while (!done()) {
    context += playTurn(
      writer,
      rng,
      t,
      turn === 0 && writer.entryCount <= 2 ? firstPrompt(rng, subject) : followUp(rng),
      plan.toolBytes,
      track,
    );
    turn++;
    if (t.named && (turn === 1 || (renamed < 2 && rng.chance(0.05)))) {
      if (turn > 1) renamed++;
      writer.sessionInfo(renamed > 0 && rng.chance(0.1) ? '' : sessionName(rng, subject));
      track();
    }
    if (t.labels && rng.chance(0.25)) {
      labelSomething(writer, rng);
      track();
    }
    if (rng.chance(0.05)) {
      t.model = pickModel(rng);
      writer.modelChange(t.model.provider, t.model.modelId);
      track();
    }
    if (rng.chance(0.04)) {
      t.thinking = rng.pick(plan.reasoning ? THINKING_LEVELS.slice(2) : THINKING_LEVELS);
      writer.thinkingLevelChange(t.thinking);
      track();
    }
    if (rng.chance(0.05)) {
      bashExecution(writer, rng, plan.toolBytes);
      track();
    }
    if (turn % t.compactEvery === 0) {
      if (compact(writer, rng, 20_000 + context)) track();
      context = Math.floor(context / 5);
    }
    if (t.branchy && turn > 1 && rng.chance(0.2) && branchBack(writer, rng)) track();
  }
}

/** A prompt, 0–5 tool rounds and an answer; returns the tokens it adds to the context. */
function playTurn(
  writer: SessionWriter,
  rng: Rng,
  t: Traits,
  prompt: string,
  toolBytes: number,
  track: () => void,
): number {
  writer.wait(20_000, 600_000);
  writer.message((timestamp) => userMessage(rng.chance(0.7) ? prompt : [{ type: 'text', text: prompt }], timestamp));
  track();
  let tokens = 0;
  for (let round = rng.int(0, 5); round > 0; round--) {
    const calls = Array.from({ length: rng.chance(0.2) ? 2 : 1 }, () => ({
      ...toolCall(rng),
      id: `toolu_${rng.hex(20)}`,
    }));
    writer.wait(2_000, 40_000);
    writer.message((timestamp) =>
      assistantMessage(
        t.model,
        [
          ...thinking(rng, t),
          ...calls.map((c) => ({ type: 'toolCall', id: c.id, name: c.name, arguments: c.arguments })),
        ],
        'toolUse',
        usage(rng),
        timestamp,
      ),
    );
    track();
    for (const call of calls) {
      const size =
        call.name === 'read' || call.name === 'bash' ? Math.min(rng.logNormal(toolBytes), TOOL_OUTPUT_CAP) : 60;
      const text = toolOutput(rng, call.name, size);
      const isError = rng.chance(0.04);
      writer.wait(100, 20_000);
      writer.message((timestamp) => toolResultMessage(call.id, call.name, text, isError, timestamp));
      track();
      tokens += Math.ceil(text.length / 4);
    }
  }
  writer.wait(2_000, 60_000);
  const stop = rng.chance(0.03) ? 'error' : rng.chance(0.02) ? 'aborted' : 'stop';
  writer.message((timestamp) => {
    const message = assistantMessage(
      t.model,
      [...thinking(rng, t), { type: 'text', text: answer(rng) }],
      stop,
      usage(rng),
      timestamp,
    );
    if (stop === 'error') message['errorMessage'] = '429 rate limit exceeded, retry later';
    return message;
  });
  track();
  return tokens + 400;
}

function thinking(rng: Rng, t: Traits): Line[] {
  if (t.thinking === 'off' || rng.chance(0.3)) return [];
  return [{ type: 'thinking', thinking: thought(rng), thinkingSignature: rng.hex(400) }];
}

function usage(rng: Rng): Usage {
  return {
    input: rng.int(800, 40_000),
    output: rng.int(40, 2_000),
    cacheRead: rng.chance(0.6) ? rng.int(0, 30_000) : 0,
  };
}

function bashExecution(writer: SessionWriter, rng: Rng, toolBytes: number): void {
  const cancelled = rng.chance(0.1);
  const output = toolOutput(rng, 'bash', Math.min(rng.logNormal(toolBytes / 2), TOOL_OUTPUT_CAP));
  writer.wait(5_000, 120_000);
  writer.message((timestamp) => {
    const message: Line = {
      role: 'bashExecution',
      command: rng.pick(['git status --short', 'npm test', 'ls src']),
      output,
    };
    if (!cancelled) message['exitCode'] = rng.chance(0.8) ? 0 : 1;
    return { ...message, cancelled, truncated: false, timestamp };
  });
}

/** Sets, moves or clears a label on a message of the current path. */
function labelSomething(writer: SessionWriter, rng: Rng): void {
  const labelled = [...writer.resolvedLabels().keys()];
  if (labelled.length > 0 && rng.chance(0.25)) {
    writer.label(rng.pick(labelled), rng.chance(0.5) ? '' : undefined);
    return;
  }
  const targets = writer.messagesOnPath(rng.chance(0.5) ? 'user' : 'assistant');
  writer.label(rng.pick(targets), rng.pick(['checkpoint', 'good', 'bug', 'todo', 'before-refactor', 'wip', '★ keep']));
}

/** A compaction that keeps the context from a user message a few turns back. */
function compact(writer: SessionWriter, rng: Rng, tokens: number): boolean {
  const prompts = writer.messagesOnPath('user');
  if (prompts.length < 2) return false;
  const firstKept = prompts[Math.max(0, prompts.length - rng.int(1, 3))]!;
  writer.wait(10_000, 60_000);
  writer.compaction(
    'Goal and progress so far: the cause is found, the fix is half done; next: tests.',
    firstKept,
    tokens,
    {
      readFiles: ['src/server.ts'],
      modifiedFiles: ['src/cart/totals.ts'],
    },
  );
  return true;
}

/**
 * Goes back like a pi user does in /tree: re-edit an earlier prompt (continue from its parent)
 * or continue from an earlier answer; half the time pi writes a summary of the abandoned path.
 */
function branchBack(writer: SessionWriter, rng: Rng): boolean {
  const reEdit = rng.chance(0.5);
  const candidates = writer.messagesOnPath(reEdit ? 'user' : 'assistant').slice(0, -1);
  if (candidates.length === 0) return false;
  const chosen = rng.pick(candidates);
  const target = reEdit ? ((writer.path(chosen).at(-2)?.['id'] as string | undefined) ?? null) : chosen;
  if (rng.chance(0.5)) {
    writer.wait(10_000, 120_000);
    writer.branchWithSummary(
      target,
      'Tried another approach first: it worked but touched too many files, so it was abandoned.',
    );
    return true;
  }
  writer.branch(target);
  return false;
}
