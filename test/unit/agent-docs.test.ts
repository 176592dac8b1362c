/**
 * docs/agent-browser.md lists exactly the tools AgentBrowser has (recording on, every extra tool), generated
 * from the definitions. When it is stale: `UPDATE_AGENT_DOCS=1 npx vitest run test/unit/agent-docs.test.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentBrowser } from '../../src/agent/agent-browser.js';
import { AGENT_TOOLS_BEGIN, AGENT_TOOLS_END, renderAgentToolTable } from '../../src/agent/reference.js';

const docUrl = new URL('../../docs/agent-browser.md', import.meta.url);

describe('docs/agent-browser.md', () => {
  it('has the current tool table', () => {
    const doc = readFileSync(docUrl, 'utf8');
    const tools = new AgentBrowser({ recording: { outputDir: 'recordings' }, extraTools: 'all' }).listTools();
    const table = renderAgentToolTable(tools);
    const current = doc.slice(
      doc.indexOf(AGENT_TOOLS_BEGIN),
      doc.indexOf(AGENT_TOOLS_END) + AGENT_TOOLS_END.length,
    );
    if (process.env.UPDATE_AGENT_DOCS === '1' && current !== table)
      writeFileSync(docUrl, doc.replace(current, table));
    else expect(current).toBe(table);
  });

  it("shows seed 000's example and one example per framework", () => {
    const doc = readFileSync(docUrl, 'utf8');
    for (const snippet of [
      "from 'browsermesh/mastra'",
      "from 'browsermesh/ai-sdk'",
      "from 'browsermesh/langchain'",
      'new Agent({',
      "scope: 'thread'",
    ]) {
      expect(doc).toContain(snippet);
    }
  });
});
