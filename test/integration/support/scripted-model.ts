import type {
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';

/** What the scripted model "says" in one step: tool calls, or a final text. */
export type ScriptedReply = Array<{ toolName: string; input: unknown } | { text: string }>;
/** One model step; it reads the prompt (tool results included) like a real model would. */
export type ScriptedStep = (prompt: LanguageModelV3Prompt) => ScriptedReply;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * A language model (AI SDK spec v3) that follows a script: step n answers the n-th call, with the
 * prompt in hand, so a step can pick a ref out of the previous snapshot as a model would. Both
 * generate and stream are served (Mastra streams, generateText does not). After the script: "done".
 */
export function scriptedModel(steps: ScriptedStep[]): {
  model: MockLanguageModelV3;
  prompts: LanguageModelV3Prompt[];
} {
  const prompts: LanguageModelV3Prompt[] = [];
  let calls = 0;
  const next = (prompt: LanguageModelV3Prompt): LanguageModelV3Content[] => {
    prompts.push(prompt);
    const step = steps[calls++];
    const reply = step ? step(prompt) : [{ text: 'done' }];
    return reply.map((part, i) =>
      'text' in part
        ? { type: 'text', text: part.text }
        : {
            type: 'tool-call',
            toolCallId: `call_${calls}_${i}`,
            toolName: part.toolName,
            input: JSON.stringify(part.input),
          },
    );
  };
  const finishOf = (content: LanguageModelV3Content[]) => ({
    unified: content.some((part) => part.type === 'tool-call') ? ('tool-calls' as const) : ('stop' as const),
    raw: undefined,
  });
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const content = next(options.prompt);
      return { content, finishReason: finishOf(content), usage: USAGE, warnings: [] };
    },
    doStream: async (options) => {
      const content = next(options.prompt);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      content.forEach((part, i) => {
        if (part.type === 'text')
          parts.push(
            { type: 'text-start', id: `t${i}` },
            { type: 'text-delta', id: `t${i}`, delta: part.text },
            { type: 'text-end', id: `t${i}` },
          );
        else if (part.type === 'tool-call') parts.push(part);
      });
      parts.push({ type: 'finish', finishReason: finishOf(content), usage: USAGE });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, prompts };
}

type ToolResultOutput = Extract<
  LanguageModelV3Prompt[number],
  { role: 'tool' }
>['content'][number] extends infer P
  ? P extends { type: 'tool-result'; output: infer O }
    ? O
    : never
  : never;

/** The output of the last result of `toolName` in the prompt, as the model received it. */
export function lastToolOutput(prompt: LanguageModelV3Prompt, toolName: string): ToolResultOutput {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'tool') continue;
    for (const part of [...message.content].reverse()) {
      if (part.type === 'tool-result' && part.toolName === toolName) return part.output;
    }
  }
  throw new Error(`no ${toolName} result in the prompt`);
}

/** The text the model saw for the last result of `toolName` (text output, or the text parts of content). */
export function lastToolText(prompt: LanguageModelV3Prompt, toolName: string): string {
  const output = lastToolOutput(prompt, toolName);
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'content')
    return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return JSON.stringify('value' in output ? output.value : output);
}
