/**
 * LangChain.js adapter: `import { toLangChainTools } from 'browsermesh/langchain'`. Needs the optional
 * peer `@langchain/core`. Only this subpath loads it; `import 'browsermesh'` never does.
 */
import { ToolMessage } from '@langchain/core/messages';
import { tool, type DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { AgentBrowser } from '../agent-browser.js';
import type { AgentTool, ModelContent } from '../tool-types.js';
import { threadIdFrom } from './thread-id.js';

export interface LangChainToolsOptions {
  /** The thread these tools act for when the run config names none (`configurable.thread_id` wins). */
  threadId?: string;
}

/** A LangChain message content block: text, or an image as a data URL (understood by the chat model integrations). */
type ContentBlock = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * The AgentBrowser's tools as LangChain structured tools. Each returns `content_and_artifact`: the
 * model sees compact content (snapshot text, a screenshot image, short JSON), and the structured
 * result travels as the ToolMessage's `artifact`. The thread comes from the run config's
 * `configurable.thread_id` (LangGraph's convention), else `options.threadId`.
 *
 * @example
 * ```ts
 * import { AgentBrowser } from 'browsermesh';
 * import { toLangChainTools } from 'browsermesh/langchain';
 *
 * const tools = toLangChainTools(new AgentBrowser());
 * const llmWithTools = chatModel.bindTools(tools);
 * ```
 */
export function toLangChainTools(
  browser: AgentBrowser,
  options: LangChainToolsOptions = {},
): DynamicStructuredTool[] {
  return browser.listTools().map((agentTool) => toLangChainTool(agentTool, options));
}

function toLangChainTool(agentTool: AgentTool, options: LangChainToolsOptions): DynamicStructuredTool {
  return tool(
    async (
      input: unknown,
      config?: ToolRunnableConfig,
    ): Promise<[string | ContentBlock[] | ToolMessage, Record<string, unknown>]> => {
      const threadId = threadIdFrom(config?.configurable, ['thread_id', 'threadId']) ?? options.threadId;
      const output = await agentTool.execute(input, { threadId, signal: config?.signal });
      const content = toContent(agentTool.toModelContent(output));
      const toolCallId = config?.toolCall?.id;
      // LangChain marks every returned tuple `status: "success"`; a failed action must read as a
      // failure (LangGraph, tracing and retry logic look at status), so it gets its own ToolMessage.
      if ('error' in output && toolCallId !== undefined) {
        const failed = new ToolMessage({
          status: 'error',
          content,
          artifact: output,
          tool_call_id: toolCallId,
          name: agentTool.id,
        });
        return [failed, output];
      }
      return [content, output];
    },
    {
      name: agentTool.id,
      description: agentTool.description,
      schema: agentTool.inputSchema,
      responseFormat: 'content_and_artifact',
    },
  ) as unknown as DynamicStructuredTool;
}

function toContent(content: ModelContent): string | ContentBlock[] {
  const first = content[0];
  if (content.length === 1 && first?.type === 'text') return first.text;
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'text' as const, text: part.text }
      : { type: 'image_url' as const, image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
  );
}
