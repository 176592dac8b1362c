import { PassThrough } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { BoundedStdioServerTransport } from '../../src/mcp/stdio-transport.js';

export interface WireReply {
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * The server side of MCP over stdio, driven by raw lines: what a careless or hostile client writes
 * to the server's stdin, byte for byte, and every line the server writes back.
 */
export class StdioWire {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly replies: WireReply[] = [];
  closed = false;
  private pending = '';
  private waiters: Array<() => void> = [];

  constructor(
    readonly server: Server,
    maxMessageBytes = 4 * 1024 * 1024,
  ) {
    this.transport = new BoundedStdioServerTransport(maxMessageBytes, this.stdin, this.stdout);
    this.stdout.setEncoding('utf8');
    this.stdout.on('data', (text: string) => {
      const lines = (this.pending + text).split('\n');
      this.pending = lines.pop() ?? '';
      for (const line of lines) this.replies.push(JSON.parse(line) as WireReply);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  readonly transport: BoundedStdioServerTransport;

  async start(): Promise<void> {
    const onclose = this.transport.onclose;
    await this.server.connect(this.transport);
    // Chained after the SDK's own handler: the test asserts the transport never closes.
    const sdkClose = this.transport.onclose ?? onclose;
    this.transport.onclose = () => {
      this.closed = true;
      sdkClose?.();
    };
    await this.request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'wire', version: '1' },
    });
    this.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  /** Writes text plus a newline, in chunks as a pipe would deliver them. */
  write(text: string): void {
    const data = Buffer.from(`${text}\n`);
    for (let at = 0; at < data.length; at += 65_536) this.stdin.write(data.subarray(at, at + 65_536));
  }

  request(id: number | string, method: string, params?: unknown, timeoutMs?: number): Promise<WireReply> {
    this.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return this.reply(id, timeoutMs);
  }

  /** The reply with this id (null: an answer to a line whose id could not be read). */
  async reply(id: number | string | null, timeoutMs = 15_000): Promise<WireReply> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.replies.find((r) => r.id === id);
      if (found) return found;
      const left = end - Date.now();
      if (left <= 0) throw new Error(`no reply with id ${String(id)} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => undefined);
  }
}
