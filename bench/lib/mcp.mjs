// One MCP server process reached over stdio with the official SDK client. Every tool call is
// measured the same way for every server: wall time, and the characters and o200k tokens of the
// text the model would read (the result's text blocks) and write (the call's arguments).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from './tokens.mjs';
import { endTree, treePids } from './proc.mjs';

const STDERR_TAIL_CHARS = 4000;

/** Concatenated text blocks of a tool result (images and resources are not text the model reads). */
export function resultText(result) {
  const blocks = Array.isArray(result?.content) ? result.content : [];
  return blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** A tool call that returned `isError`, or a protocol error, surfaced as one exception. */
export class ToolCallError extends Error {
  constructor(server, tool, text) {
    super(`${server}: ${tool} failed: ${text.slice(0, 400)}`);
    this.name = 'ToolCallError';
    this.tool = tool;
  }
}

export class McpConnection {
  /**
   * @param {{ label: string, command: string, args: string[], env?: Record<string,string>, cwd?: string }} spec
   */
  constructor(spec) {
    this.label = spec.label;
    this.spec = spec;
    this.stderrTail = '';
    /** @type {Array<{ tool: string, ms: number, chars: number, tokens: number, argChars: number, argTokens: number, isError: boolean }>} */
    this.log = [];
  }

  /** Spawns the server and completes the MCP handshake; returns the time that took in ms. */
  async start() {
    const started = performance.now();
    this.transport = new StdioClientTransport({
      command: this.spec.command,
      args: this.spec.args,
      env: { ...process.env, ...this.spec.env },
      cwd: this.spec.cwd,
      stderr: 'pipe',
    });
    this.transport.stderr?.on('data', (chunk) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    this.client = new Client({ name: 'browsermesh-bench', version: '1.0.0' });
    await this.client.connect(this.transport).catch((error) => this.rethrow(error));
    this.pid = this.transport.pid;
    this.instructions = this.client.getInstructions() ?? '';
    return performance.now() - started;
  }

  /** tools/list, with its serialized size and tokens as a client would put it in the model's context. */
  async listTools() {
    const { tools } = await this.client.listTools();
    const json = JSON.stringify(tools);
    return {
      tools,
      names: tools.map((t) => t.name),
      bytes: Buffer.byteLength(json),
      tokens: countTokens(json),
    };
  }

  /**
   * Calls a tool and measures it. Throws ToolCallError on an error result unless `allowError`.
   * @returns {Promise<{ tool: string, ms: number, text: string, chars: number, tokens: number, argChars: number, argTokens: number, isError: boolean, structured: any }>}
   */
  async call(tool, args = {}, { timeoutMs = 120_000, allowError = false } = {}) {
    const started = performance.now();
    const result = await this.client
      .callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
      })
      .catch((error) => this.rethrow(error));
    const ms = performance.now() - started;
    const text = resultText(result);
    const argText = JSON.stringify(args);
    const record = {
      tool,
      ms,
      text,
      chars: text.length,
      tokens: countTokens(text),
      argChars: argText.length,
      argTokens: countTokens(argText),
      isError: result.isError === true,
      structured: result.structuredContent,
    };
    this.log.push({ ...record, text: undefined, structured: undefined });
    if (record.isError && !allowError) throw new ToolCallError(this.label, tool, text);
    return record;
  }

  /** A protocol failure, with the end of the server's stderr when the server went away (it says why). */
  rethrow(error) {
    const lines = this.stderrTail.trim().split('\n');
    const tail = (lines.find((line) => /Error\b/.test(line)) ?? lines.slice(-3).join(' | ')).slice(0, 400);
    if (tail && /closed|exited|EPIPE/i.test(String(error?.message))) {
      throw new Error(`${this.label}: ${error.message} (server stderr: ${tail})`, { cause: error });
    }
    throw error;
  }

  /** Starts a fresh call log (a flow's calls are read back with `takeLog`). */
  resetLog() {
    this.log = [];
  }

  takeLog() {
    const log = this.log;
    this.log = [];
    return log;
  }

  /**
   * Closes the client (stdin end → SIGTERM → SIGKILL, as the SDK does), then ends whatever is left
   * of the process tree this connection started, by pid.
   */
  async close() {
    const pids = this.pid ? treePids(this.pid) : [];
    await this.client?.close().catch(() => undefined);
    await endTree(pids);
  }
}

/** Starts a server, runs `fn` with it, and always closes it. */
export async function withServer(spec, fn) {
  const conn = new McpConnection(spec);
  try {
    await conn.start();
    return await fn(conn);
  } finally {
    await conn.close();
  }
}
