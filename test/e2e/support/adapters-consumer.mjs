/**
 * Run from a folder where `browsermesh` was installed from its tarball (test/e2e/pack.test.ts): each
 * framework adapter drives a real Chromium through the framework's own loop — AI SDK `generateText`,
 * a LangChain tool call, a Mastra `Agent` — with a scripted model that reads refs out of the snapshot
 * it was given. A loopback page counts the clicks per adapter; the result is printed as one JSON line.
 * Plain JavaScript on purpose: this is what a user's project runs, with no TypeScript in between.
 */
import { createServer } from 'node:http';
import { Agent } from '@mastra/core/agent';
import { generateText, stepCountIs } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { AgentBrowser } from 'browsermesh';
import { toAISDKTools } from 'browsermesh/ai-sdk';
import { toLangChainTools } from 'browsermesh/langchain';
import { AgentBrowser as MastraAgentBrowser } from 'browsermesh/mastra';

const hits = new Map();
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/hit') {
    const who = url.searchParams.get('who') ?? '';
    hits.set(who, (hits.get(who) ?? 0) + 1);
    res.writeHead(204).end();
    return;
  }
  const who = JSON.stringify(url.searchParams.get('who') ?? '');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><title>count</title><button onclick='fetch("/hit?who=" + ${who})'>Increment</button>`,
  );
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const options = { executablePath: process.env.BROWSERMESH_EXECUTABLE_PATH, timeout: 30_000 };

/** The ref of the Increment button in a snapshot text (`[button @e3] Increment`). */
function incrementRef(text) {
  const match = /\[button (@e\d+)[^\]]*\] Increment/.exec(text);
  if (!match) throw new Error('no Increment button in the snapshot');
  return match[1];
}

/** The text of the latest tool result in a model prompt (AI SDK spec v3). */
function lastToolText(prompt) {
  const results = prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
  const output = results.at(-1)?.output;
  if (output?.type === 'text') return output.value;
  if (output?.type === 'content') return output.value.map((p) => p.text ?? '').join('\n');
  return JSON.stringify(output?.value ?? '');
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** goto → snapshot → click the ref read from the snapshot → "done", for generate and stream alike. */
function scriptedModel(who) {
  let step = 0;
  const next = (prompt) => {
    step++;
    const call = (toolName, input) => [
      { type: 'tool-call', toolCallId: `c${step}`, toolName, input: JSON.stringify(input) },
    ];
    if (step === 1) return call('browser_goto', { url: `${origin}/?who=${who}` });
    if (step === 2) return call('browser_snapshot', { interactiveOnly: true });
    if (step === 3) return call('browser_click', { ref: incrementRef(lastToolText(prompt)) });
    return [{ type: 'text', text: 'done' }];
  };
  const finish = (content) => ({
    unified: content.some((p) => p.type === 'tool-call') ? 'tool-calls' : 'stop',
    raw: undefined,
  });
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const content = next(prompt);
      return { content, finishReason: finish(content), usage: USAGE, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      const content = next(prompt);
      const parts = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text')
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          );
        else parts.push(part);
      }
      parts.push({ type: 'finish', finishReason: finish(content), usage: USAGE });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

async function runAiSdk() {
  const browser = new AgentBrowser(options);
  try {
    const result = await generateText({
      model: scriptedModel('ai-sdk'),
      tools: toAISDKTools(browser),
      stopWhen: stepCountIs(6),
      prompt: 'Click Increment.',
    });
    return result.text;
  } finally {
    await browser.close();
  }
}

async function runLangChain() {
  const browser = new AgentBrowser(options);
  try {
    const tools = Object.fromEntries(toLangChainTools(browser).map((tool) => [tool.name, tool]));
    const config = { configurable: { thread_id: 'lc' } };
    let id = 0;
    const invoke = (name, args) =>
      tools[name].invoke({ id: `call_${++id}`, name, args, type: 'tool_call' }, config);
    await invoke('browser_goto', { url: `${origin}/?who=langchain` });
    const snapshot = await invoke('browser_snapshot', { interactiveOnly: true });
    const clicked = await invoke('browser_click', { ref: incrementRef(String(snapshot.content)) });
    // A failed action must come back as a failure (status "error"), not as a success.
    const failed = await invoke('browser_click', { ref: '@e9999' });
    return `${clicked.status ?? 'success'}/${failed.status}`;
  } finally {
    await browser.close();
  }
}

async function runMastra() {
  const browser = new MastraAgentBrowser(options);
  try {
    const agent = new Agent({
      id: 'consumer-agent',
      name: 'Consumer Agent',
      instructions: 'Use the browser tools.',
      model: scriptedModel('mastra'),
      browser,
    });
    const result = await agent.generate('Click Increment.', {
      maxSteps: 6,
      memory: { thread: 'consumer-thread', resource: 'consumer' },
    });
    return result.text;
  } finally {
    await browser.close();
  }
}

const out = {};
try {
  out.aiSdk = await runAiSdk();
  out.langchain = await runLangChain();
  out.mastra = await runMastra();
  out.hits = Object.fromEntries(hits);
} catch (error) {
  out.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
} finally {
  server.close();
}
console.log(JSON.stringify(out));
