/** pi's message shapes (the `message` of a `message` entry), with pi's key order. */
import type { Model } from './content.js';
import type { Line } from './session-writer.js';

export function userMessage(content: string | Line[], timestamp: number): Line {
  return { role: 'user', content, timestamp };
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
}

/** An assistant reply; cost at a typical per-token price so the picker's cost column has values. */
export function assistantMessage(
  model: Model,
  content: Line[],
  stopReason: string,
  usage: Usage,
  timestamp: number,
): Line {
  const { input, output, cacheRead } = usage;
  const cost = {
    input: input * 3e-6,
    output: output * 15e-6,
    cacheRead: cacheRead * 3e-7,
    cacheWrite: 0,
    total: input * 3e-6 + output * 15e-6 + cacheRead * 3e-7,
  };
  return {
    role: 'assistant',
    content,
    api: model.api,
    provider: model.provider,
    model: model.modelId,
    usage: { input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead, cost },
    stopReason,
    timestamp,
  };
}

export function toolResultMessage(
  toolCallId: string,
  toolName: string,
  text: string,
  isError: boolean,
  timestamp: number,
): Line {
  return { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError, timestamp };
}
