/**
 * A loopback CDP endpoint in front of a real remote-debugging Chromium that answers the listed
 * methods as a Chromium without them does: JSON-RPC error -32601 "'X' wasn't found". Everything else
 * (HTTP discovery, every other command and event) passes through unchanged. Used to test what
 * BrowserMesh does on a browser that lacks a CDP method (e.g. Page.startScreenRecording on an older
 * Chromium) with the one Chromium installed here.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface CdpWithout {
  /** http://127.0.0.1:PORT, for connectOverCDP's HTTP discovery. */
  httpEndpoint: string;
  /** How many commands were answered as missing. */
  refused(): number;
  close(): Promise<void>;
}

interface WsFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
  raw: Buffer;
}

/** Parses whole frames off the front of `buffer`; returns them and what is left. */
function takeFrames(buffer: Buffer): { frames: WsFrame[]; rest: Buffer } {
  const frames: WsFrame[] = [];
  let at = 0;
  for (;;) {
    if (buffer.length - at < 2) break;
    const b0 = buffer[at]!;
    const b1 = buffer[at + 1]!;
    let length = b1 & 0x7f;
    let header = 2;
    if (length === 126) {
      if (buffer.length - at < 4) break;
      length = buffer.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      if (buffer.length - at < 10) break;
      length = Number(buffer.readBigUInt64BE(at + 2));
      header = 10;
    }
    const masked = (b1 & 0x80) !== 0;
    const total = header + (masked ? 4 : 0) + length;
    if (buffer.length - at < total) break;
    const payload = Buffer.from(buffer.subarray(at + total - length, at + total));
    if (masked) {
      const key = buffer.subarray(at + header, at + header + 4);
      for (let i = 0; i < payload.length; i++) payload[i]! ^= key[i % 4]!;
    }
    frames.push({ fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, payload, raw: buffer.subarray(at, at + total) });
    at += total;
  }
  return { frames, rest: buffer.subarray(at) };
}

/** An unmasked (server to client) text frame. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const header =
    payload.length < 126
      ? Buffer.from([0x81, payload.length])
      : payload.length < 65_536
        ? Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff])
        : (() => {
            const h = Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
            h.writeBigUInt64BE(BigInt(payload.length), 2);
            return h;
          })();
  return Buffer.concat([header, payload]);
}

export async function startCdpWithout(target: string, methods: readonly string[]): Promise<CdpWithout> {
  const upstream = new URL(target);
  let refused = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    // HTTP discovery: pass through, pointing the WebSocket URLs at this proxy.
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const own = (server.address() as AddressInfo).port;
          const body = Buffer.concat(chunks).toString('utf8').replaceAll(`:${upstream.port}/`, `:${own}/`);
          res.writeHead(answer.statusCode ?? 502, { 'Content-Type': 'application/json' });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    forward.end();
  });
  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    sockets.add(pipeFiltered(req, client, head, upstream, methods, () => refused++));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    httpEndpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Pipes one WebSocket between the client and the browser, answering the listed methods as missing. */
function pipeFiltered(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  upstream: URL,
  methods: readonly string[],
  onRefused: () => void,
): Socket {
  const browser = connect(Number(upstream.port), upstream.hostname);
  // No permessage-deflate, so the proxy can read the frames.
  const headers = Object.entries(req.headers)
    .filter(([name]) => name.toLowerCase() !== 'sec-websocket-extensions')
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
  browser.write(`GET ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
  let handshakeDone = false;
  let fromBrowser = Buffer.alloc(0);
  let fromClient = Buffer.from(head);
  let midMessage = false;
  const pending: Buffer[] = [];
  const answerMissing = (json: { id?: number; sessionId?: string; method?: string }): void => {
    onRefused();
    const error = { code: -32601, message: `'${json.method}' wasn't found` };
    const reply = textFrame(
      JSON.stringify({ id: json.id, error, ...(json.sessionId ? { sessionId: json.sessionId } : {}) }),
    );
    // Never inside a fragmented message from the browser.
    if (midMessage) pending.push(reply);
    else client.write(reply);
  };
  browser.on('data', (chunk: Buffer) => {
    if (!handshakeDone) {
      const text = chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      client.write(chunk.subarray(0, end + 4));
      handshakeDone = true;
      chunk = chunk.subarray(end + 4);
    }
    const { frames, rest } = takeFrames(Buffer.concat([fromBrowser, chunk]));
    fromBrowser = Buffer.from(rest);
    for (const frame of frames) {
      client.write(frame.raw);
      if (frame.opcode < 8) midMessage = !frame.fin;
      if (!midMessage) for (const reply of pending.splice(0)) client.write(reply);
    }
  });
  client.on('data', (chunk: Buffer) => {
    const { frames, rest } = takeFrames(Buffer.concat([fromClient, chunk]));
    fromClient = Buffer.from(rest);
    for (const frame of frames) {
      if (frame.opcode === 1 && frame.fin) {
        const json = JSON.parse(frame.payload.toString('utf8')) as { method?: string };
        if (json.method && methods.includes(json.method)) {
          answerMissing(json);
          continue;
        }
      }
      browser.write(frame.raw);
    }
  });
  if (fromClient.length > 0) client.emit('data', Buffer.alloc(0));
  const end = (): void => {
    client.destroy();
    browser.destroy();
  };
  client.on('close', end);
  browser.on('close', end);
  client.on('error', end);
  browser.on('error', end);
  return browser;
}
