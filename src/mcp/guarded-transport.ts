import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { refusalOf, requestIdOf, rpcError } from './message-guard.js';

/**
 * Wraps any MCP transport so that a request the SDK would answer badly is answered here instead:
 * a `tools/call` whose params, name or arguments have the wrong type, and params nested too deep,
 * get a short -32602 (no validation dump, no echoed value) and never reach the SDK. Everything else
 * passes through unchanged, so every transport (stdio, Streamable HTTP, in-memory) gets the same
 * answers.
 */
export class GuardedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The SDK server calls this after initialize to tell the transport the negotiated version. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    // Handlers set on the inner transport before connecting (http.ts watches onclose) keep firing.
    const innerClose = this.inner.onclose;
    const innerError = this.inner.onerror;
    this.inner.onclose = () => {
      innerClose?.();
      this.onclose?.();
    };
    this.inner.onerror = (error) => {
      innerError?.(error);
      this.onerror?.(error);
    };
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const refusal = refusalOf(message);
    if (refusal === undefined) {
      this.onmessage?.(message, extra);
      return;
    }
    const id = requestIdOf(message);
    const reply = rpcError(id, refusal.code, refusal.message);
    this.inner
      .send(reply, id === null ? undefined : { relatedRequestId: id })
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error('send failed')));
  }
}
