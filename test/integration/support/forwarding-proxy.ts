import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer, request as httpRequest, type Server } from 'node:http';

/**
 * The loopback host a request names, in WHATWG form (so `2130706434` is `127.0.0.2`), or undefined
 * for anything off loopback: a test never sends traffic anywhere else (Chromium's own background
 * requests included).
 */
function loopbackHost(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]' ? host.replace(/^\[|\]$/g, '') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A forwarding proxy on loopback (plain HTTP and CONNECT): it would reach the trap if asked to. It
 * forwards to loopback only and drops anything else.
 */
export async function startForwardingProxy(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (!loopbackHost(req.url ?? '')) {
      res.destroy();
      return;
    }
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = new URL(`http://${req.url ?? ''}`);
    const host = loopbackHost(target.href);
    if (!host) {
      client.destroy();
      return;
    }
    // URL drops a port that is http's default: the CONNECT line's own port is the one to use.
    const port = Number(/:(\d+)$/.exec(req.url ?? '')?.[1] ?? 443);
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
