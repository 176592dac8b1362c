import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpstreamSocket } from './playwright-upstream.js';
import { dial } from './tunnel-dial.js';

/** What the dial point has done for one connection's remote browser (its refusals are the policy's). */
export interface DialStats {
  /** Connections the remote browser asked this process to open. */
  requested: number;
  /** Refused by the session's URL policy (answered `ERULESET`). */
  refused: number;
}

const SOCKS_TYPE = '"SocksSupport"';
const METADATA = { stack: [], apiName: '', internal: true, timeout: 0 };

/**
 * The local end of one connection to a Playwright browser server. Playwright's client speaks to it
 * over a private pipe (a Unix socket in a 0700 directory), it speaks to the server over the WebSocket
 * it was handed, and it answers the server's SOCKS requests itself: with `x-playwright-proxy: *`,
 * every connection the remote browser opens is asked of this process, and {@link dial} opens it
 * through the session's guard. That is the dial point of the session's URL policy; Playwright's own
 * client-side SOCKS handler (which dials anything) never sees a request.
 */
export class PlaywrightTunnel {
  readonly stats: DialStats = { requested: 0, refused: 0 };
  /** Whether the server set up the SOCKS tunnel on this connection (a `run-server` endpoint does). */
  tunnelOffered = false;
  private socksGuid: string | undefined;
  private nextId = -1;
  private readonly ownIds = new Set<number>();
  private readonly sockets = new Map<string, Socket>();
  private readonly pending: string[] = [];
  private readonly seenHosts = new Set<string>();
  private readonly hostWaiters = new Map<string, () => void>();
  private client: Socket | undefined;
  private server: Server | undefined;
  private closed = false;

  private constructor(
    private readonly upstream: UpstreamSocket,
    private readonly dir: string,
    private readonly guard: string | undefined,
  ) {
    upstream.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.fromServer(data.toString('utf8'));
    });
    upstream.on('close', () => void this.close());
    upstream.on('error', () => void this.close());
  }

  /** The pipe Playwright's `connect()` takes as its endpoint. */
  get pipePath(): string {
    return join(this.dir, 'pw.sock');
  }

  /** Starts the pipe for an open upstream WebSocket; the first client to connect is the only one. */
  static async open(upstream: UpstreamSocket, guard: string | undefined): Promise<PlaywrightTunnel> {
    const dir = await mkdtemp(join(tmpdir(), 'browsermesh-pw-'));
    const tunnel = new PlaywrightTunnel(upstream, dir, guard);
    const server = createServer((socket) => tunnel.attach(socket));
    tunnel.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(tunnel.pipePath, () => resolve());
    });
    return tunnel;
  }

  /** Resolves true once the remote browser asked this process for `host`, false after `withinMs`. */
  waitForHost(host: string, withinMs: number): Promise<boolean> {
    if (this.seenHosts.has(host)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.hostWaiters.delete(host);
        resolve(false);
      }, withinMs);
      this.hostWaiters.set(host, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const socket of this.sockets.values()) socket.destroy();
    this.sockets.clear();
    this.client?.destroy();
    this.server?.close();
    if (this.upstream.readyState <= 1) this.upstream.close();
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private attach(socket: Socket): void {
    if (this.client || this.closed) return void socket.destroy();
    this.client = socket;
    // One client: nobody else may open the pipe once Playwright has it.
    this.server?.close();
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf('\0');
      while (end !== -1) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (this.upstream.readyState === 1) this.upstream.send(message);
        end = buffered.indexOf('\0');
      }
    });
    socket.on('close', () => void this.close());
    socket.on('error', () => socket.destroy());
    for (const message of this.pending.splice(0)) socket.write(`${message}\0`);
  }

  private toClient(message: string): void {
    if (this.client) this.client.write(`${message}\0`);
    else this.pending.push(message);
  }

  private fromServer(text: string): void {
    const relevant =
      text.startsWith('{"id":-') ||
      (this.socksGuid === undefined ? text.includes(SOCKS_TYPE) : text.includes(this.socksGuid));
    if (!relevant) return this.toClient(text);
    const message = JSON.parse(text) as ServerMessage;
    if (typeof message.id === 'number' && this.ownIds.delete(message.id)) return;
    if (message.method === '__create__' && message.params?.type === 'SocksSupport') {
      this.socksGuid = message.params.guid;
      this.tunnelOffered = true;
      return this.toClient(text);
    }
    if (this.socksGuid !== undefined && message.guid === this.socksGuid) {
      return this.onSocksEvent(message.method ?? '', message.params ?? {});
    }
    this.toClient(text);
  }

  private onSocksEvent(method: string, params: SocksParams): void {
    const uid = String(params.uid);
    if (method === 'socksRequested') void this.open(uid, String(params.host), Number(params.port));
    else if (method === 'socksData') this.sockets.get(uid)?.write(Buffer.from(String(params.data), 'base64'));
    else if (method === 'socksClosed') {
      this.sockets.get(uid)?.destroy();
      this.sockets.delete(uid);
    }
  }

  private async open(uid: string, host: string, port: number): Promise<void> {
    this.stats.requested++;
    this.seenHosts.add(host);
    const waiter = this.hostWaiters.get(host);
    if (waiter) {
      this.hostWaiters.delete(host);
      waiter();
      // A probe name is answered here; it names no real destination.
      return this.send('socksFailed', { uid, errorCode: 'ENOTFOUND' });
    }
    const result = await dial(host, port, this.guard);
    if ('errorCode' in result) {
      if (result.errorCode === 'ERULESET') this.stats.refused++;
      return this.send('socksFailed', { uid, errorCode: result.errorCode });
    }
    const { socket } = result;
    if (this.closed) return void socket.destroy();
    this.sockets.set(uid, socket);
    socket.on('data', (data: Buffer) => this.send('socksData', { uid, data: data.toString('base64') }));
    socket.on('error', (error) => {
      this.sockets.delete(uid);
      this.send('socksError', { uid, error: error.message });
    });
    socket.on('end', () => {
      this.sockets.delete(uid);
      this.send('socksEnd', { uid });
    });
    this.send('socksConnected', {
      uid,
      host: socket.localAddress ?? '127.0.0.1',
      port: socket.localPort ?? 0,
    });
    socket.resume();
  }

  private send(method: string, params: Record<string, unknown>): void {
    if (this.closed || this.upstream.readyState !== 1 || this.socksGuid === undefined) return;
    const id = this.nextId--;
    this.ownIds.add(id);
    this.upstream.send(JSON.stringify({ id, guid: this.socksGuid, method, params, metadata: METADATA }));
  }
}

interface ServerMessage {
  id?: number;
  guid?: string;
  method?: string;
  params?: { type?: string; guid?: string } & SocksParams;
}

interface SocksParams {
  uid?: unknown;
  host?: unknown;
  port?: unknown;
  data?: unknown;
}
