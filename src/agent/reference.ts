import type { z } from 'zod';
import type { AgentTool } from './tool-types.js';

export const AGENT_TOOLS_BEGIN = '<!-- agent-tools:begin (generated from the tool definitions) -->';
export const AGENT_TOOLS_END = '<!-- agent-tools:end -->';

/** The AgentBrowser tool table of docs/agent-browser.md, generated from the definitions. */
export function renderAgentToolTable(tools: readonly AgentTool[]): string {
  const rows = tools.map(
    (tool) => `| \`${tool.id}\` | ${inputOf(tool.inputSchema)} | ${tool.description.replace(/\|/g, '\\|')} |`,
  );
  return [
    AGENT_TOOLS_BEGIN,
    '| Tool | Input | What it does |',
    '|---|---|---|',
    ...rows,
    AGENT_TOOLS_END,
  ].join('\n');
}

/** `{ url, waitUntil?, timeout? }`: the fields, optional ones marked. */
function inputOf(schema: z.ZodObject): string {
  const fields = Object.entries(schema.shape).map(([name, field]) =>
    field.safeParse(undefined).success ? `${name}?` : name,
  );
  return fields.length === 0 ? '`{}`' : `\`{ ${fields.join(', ')} }\``;
}
