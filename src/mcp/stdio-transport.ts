import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCMessageSchema, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { earlyInitializeId, initializeResponse, type ServerIdentity } from './early-initialize.js';
import {
  JSONRPC_INVALID_REQUEST,
  jsonTextTooDeep,
  refusalOf,
  requestIdFromEnds,
  requestIdOf,
  rpcError,
} from './message-guard.js';

const JSONRPC_PARSE_ERROR = -32700;
/** Bytes kept from each end of an oversized line, to find its request id. */
const END_BYTES = 1024;

/**
 * MCP over stdio, one JSON-RPC message per line, with a hard size limit per line. The SDK's stdio
 * transport closes itself (and so ends the CLI) when a line passes its 10 MiB buffer, and copies its
 * whole buffer on every chunk; here an oversized line is skipped to its newline without being kept or
 * parsed and answered with -32600, and the transport stays open. Lines that are not JSON, nest too
 * deep or are not JSON-RPC are answered with an error too (with the request id where it can be
 * read), never with a validation dump.
 *
 * `answerEarly` lets the CLI answer `initialize` before the MCP server (and the SDK's schemas, zod
 * and the tools) are loaded: lines are read and held from then on, the one well-formed `initialize`
 * is answered from the server's identity, and at `start()` every held line reaches the server in
 * order, the answered `initialize` included (so the server records the client's capabilities) with
 * its second answer dropped.
 */
/** What the CLI hears about the requests read before the server is up (after an early initialize). */
export interface EarlyRequestWatch {
  /** The first tools/list (a client that will use the tools). */
  onList?: () => void;
  /** The first request after initialize, if it is not tools/list (a one-shot call, a ping). */
  onOther?: () => void;
}

export class BoundedStdioServerTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private chunks: Buffer[] = [];
  private size = 0;
  /** While skipping an oversized line: its first and latest bytes, for the request id. */
  private skipping: { head: string; tail: Buffer } | undefined;
  private started = false;
  private listening = false;
  /** Lines read before start(), in arrival order; undefined once started (or if never read early). */
  private held: string[] | undefined;
  private early: { identity: ServerIdentity; onInitialize: () => void } | undefined;
  /** The ids answered early (initialize, tools/list): the server's own answer to each is dropped once. */
  private readonly answeredEarly = new Set<RequestId>();
  /** The tools/list result as JSON text, when one built ahead of time describes this server. */
  private earlyListing: (() => string) | undefined;
  /** Runs once, at the first tools/list read before start (a client that will use the tools). */
  private onListRequested: (() => void) | undefined;
  /** Runs once, at the first other request read before start, if it came before any tools/list. */
  private onOtherRequest: (() => void) | undefined;
  private initializedEarly = false;
  private messageSchema: typeof JSONRPCMessageSchema | undefined;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  /**
   * Starts reading now, before the server exists: a well-formed `initialize` is answered from
   * `identity` at once (`onInitialize` runs after the answer is written), every line is held for
   * start(). At most one `initialize` is answered early; a later one waits for the server.
   */
  answerEarly(
    identity: ServerIdentity,
    onInitialize: () => void = () => undefined,
    listing?: () => string,
    seen: EarlyRequestWatch = {},
  ): void {
    if (this.started || this.listening) throw new Error('answerEarly must come before start');
    this.early = { identity, onInitialize };
    this.earlyListing = listing;
    this.onListRequested = seen.onList;
    this.onOtherRequest = seen.onOther;
    this.held = [];
    this.listen();
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioServerTransport already started');
    // Loaded here, not at import: the SDK's types module is what answering early avoids loading.
    this.messageSchema = (await import('@modelcontextprotocol/sdk/types.js')).JSONRPCMessageSchema;
    this.started = true;
    this.listen();
    const held = this.held ?? [];
    this.held = undefined;
    for (const line of held) this.receive(line);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const id = responseId(message);
    if (id !== undefined && this.answeredEarly.delete(id)) {
      // The client already has its answer; the server's one only confirms it (or says it differs).
      if ('error' in message) this.onerror?.(new Error('the server refused a request answered early'));
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // Only the new chunk is searched for a newline: the buffered part holds none.
    for (let index = data.indexOf(0x0a); index !== -1; index = data.indexOf(0x0a)) {
      this.append(data.subarray(0, index));
      this.endLine();
      data = data.subarray(index + 1);
    }
    this.append(data);
  };

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.skipping.tail = Buffer.concat([this.skipping.tail, part]).subarray(-END_BYTES);
      return;
    }
    if (this.size + part.length <= this.maxMessageBytes) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    // Over the limit: keep only the two ends, drop the rest as it arrives.
    const all = Buffer.concat([...this.chunks, part]);
    this.skipping = { head: all.toString('utf8', 0, END_BYTES), tail: all.subarray(-END_BYTES) };
    this.chunks = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail } = this.skipping;
      this.skipping = undefined;
      const id = requestIdFromEnds(head, tail.toString('utf8'));
      const limit = `message larger than ${this.maxMessageBytes} bytes`;
      this.reply(rpcError(id, JSONRPC_INVALID_REQUEST, `Request too large: ${limit}`));
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    this.receive(line);
  }

  private receive(line: string): void {
    if (this.held !== undefined) return this.hold(line);
    if (jsonTextTooDeep(line)) {
      const id = requestIdFromEnds(line.slice(0, END_BYTES), line.slice(-END_BYTES));
      this.reply(rpcError(id, JSONRPC_INVALID_REQUEST, 'Invalid request: nested too deeply'));
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.reply(rpcError(null, JSONRPC_PARSE_ERROR, 'Parse error: the line is not JSON'));
      return;
    }
    const refusal = refusalOf(raw);
    if (refusal) return this.reply(rpcError(requestIdOf(raw), refusal.code, refusal.message));
    const parsed = this.messageSchema?.safeParse(raw);
    if (parsed === undefined) return;
    if (!parsed.success) {
      // A request gets an answer; anything else (a malformed response or notification) is dropped.
      const isRequest = typeof raw === 'object' && raw !== null && 'method' in raw && 'id' in raw;
      if (isRequest) this.reply(rpcError(requestIdOf(raw), JSONRPC_INVALID_REQUEST, 'Invalid request'));
      else this.onerror?.(new Error('dropped a message that is not JSON-RPC'));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Before start(): holds the line, and answers the first well-formed initialize from the identity. */
  private hold(line: string): void {
    this.held?.push(line);
    const early = this.early;
    const listing =
      this.initializedEarly &&
      (this.earlyListing !== undefined ||
        this.onListRequested !== undefined ||
        this.onOtherRequest !== undefined);
    if ((early === undefined && !listing) || jsonTextTooDeep(line)) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return;
    }
    if (early === undefined) return this.listEarly(raw);
    const id = earlyInitializeId(raw);
    if (id === undefined) return;
    this.early = undefined;
    this.initializedEarly = true;
    const version = (raw as { params: { protocolVersion: string } }).params.protocolVersion;
    this.reply(initializeResponse(id, version, early.identity));
    // Set after the early answer went out: from now on the server's answer to this id is dropped.
    this.answeredEarly.add(id);
    early.onInitialize();
  }

  /**
   * After an early initialize: a tools/list answered from the listing built at build time, so a
   * client's startup timeout does not wait for the tools, zod, the SDK or playwright-core.
   */
  private listEarly(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    const { jsonrpc, method, id } = raw as { jsonrpc?: unknown; method?: unknown; id?: unknown };
    if (jsonrpc !== '2.0') return;
    if (method !== 'tools/list') {
      if (typeof method !== 'string' || id === undefined) return;
      const onOther = this.onOtherRequest;
      this.onOtherRequest = undefined;
      return onOther?.();
    }
    const onList = this.onListRequested;
    this.onListRequested = this.onOtherRequest = undefined;
    onList?.();
    const listing = this.earlyListing;
    if (listing === undefined) return;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return;
    if (this.answeredEarly.has(id)) return;
    this.answeredEarly.add(id);
    this.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${listing()}}\n`);
  }

  private reply(message: JSONRPCMessage): void {
    this.send(message).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error('stdout write failed')),
    );
  }
}

function responseId(message: JSONRPCMessage): RequestId | undefined {
  return 'id' in message && !('method' in message) ? message.id : undefined;
}
