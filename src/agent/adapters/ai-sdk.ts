/**
 * Vercel AI SDK adapter: `import { toAISDKTools } from 'browsermesh/ai-sdk'`. Needs the optional peer
 * `ai` (v5 or v6). Only this subpath loads it; `import 'browsermesh'` never does.
 */
import { tool, type Tool, type ToolSet } from 'ai';
import type { AgentBrowser } from '../agent-browser.js';
import type { AgentTool, ModelContent } from '../tool-types.js';
import { threadIdFrom } from './thread-id.js';

export interface AISDKToolsOptions {
  /**
   * The conversation thread these tools act for. A `threadId` in `experimental_context` of a
   * `generateText`/`streamText` call wins over it. Without either, the default thread.
   */
  threadId?: string;
}

type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * The AgentBrowser's tools as an AI SDK `ToolSet`, for `generateText({ tools })` and friends.
 * Snapshots reach the model as plain text and screenshots as images (`toModelOutput`).
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { AgentBrowser } from 'browsermesh';
 * import { toAISDKTools } from 'browsermesh/ai-sdk';
 *
 * const browser = new AgentBrowser();
 * const { text } = await generateText({
 *   model,
 *   tools: toAISDKTools(browser, { threadId: 'chat-42' }),
 *   stopWhen: stepCountIs(10),
 *   prompt: 'Open https://example.com and tell me the heading.',
 * });
 * ```
 */
export function toAISDKTools(browser: AgentBrowser, options: AISDKToolsOptions = {}): ToolSet {
  const set: ToolSet = {};
  for (const agentTool of browser.listTools()) set[agentTool.id] = toAISDKTool(agentTool, options);
  return set;
}

function toAISDKTool(agentTool: AgentTool, options: AISDKToolsOptions): Tool {
  return tool({
    description: agentTool.description,
    inputSchema: agentTool.inputSchema,
    outputSchema: agentTool.outputSchema,
    execute: (input: unknown, { abortSignal, experimental_context }) =>
      agentTool.execute(input, {
        threadId: threadIdFrom(experimental_context) ?? options.threadId,
        signal: abortSignal,
      }),
    toModelOutput: ({ output }: { output: unknown }) =>
      toModelOutput(agentTool.toModelContent(output as Record<string, unknown>)),
  }) as Tool;
}

/** Plain text stays text; text plus an image becomes a content result the model sees as an image. */
export function toModelOutput(content: ModelContent): ToolResultOutput {
  const first = content[0];
  if (content.length === 1 && first?.type === 'text') return { type: 'text', value: first.text };
  return {
    type: 'content',
    value: content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image-data' as const, data: part.data, mediaType: part.mimeType },
    ),
  };
}
