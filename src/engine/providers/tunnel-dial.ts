import { connect, type Socket } from 'node:net';

/** A dialed connection, or the error code Playwright's SOCKS proxy turns into the browser's reply. */
export type DialResult = { socket: Socket } | { errorCode: string };

/** Connecting (and, through the guard, its verdict and handshake) must be done by then. */
const DIAL_MS = 30_000;

/**
 * Dials host:port for a remote browser, on this machine. With a guard proxy (`socks5://127.0.0.1:P`,
 * the session's guard on loopback) the connection is a SOCKS5 CONNECT through it, so the session's URL
 * policy judges the name, resolves it here and dials only the address it checked, exactly as for a
 * local browser; a refusal comes back as `ERULESET` (the browser sees a refused connection). Without a
 * guard (no policy to apply) it dials directly.
 */
export function dial(host: string, port: number, guard: string | undefined): Promise<DialResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: DialResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ('errorCode' in result) socket.destroy();
      resolve(result);
    };
    const target = guard ? guardAddress(guard) : { host, port };
    const socket = connect(target);
    const timer = setTimeout(() => finish({ errorCode: 'ETIMEDOUT' }), DIAL_MS);
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish({ errorCode: error.code ?? 'ECONNREFUSED' }),
    );
    socket.once('connect', () => {
      if (!guard) return finish({ socket });
      void socksConnect(socket, host, port).then(finish, () => finish({ errorCode: 'ECONNRESET' }));
    });
  });
}

function guardAddress(server: string): { host: string; port: number } {
  const url = new URL(server);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) };
}

const REPLY_NOT_ALLOWED = 0x02;
const REPLY_HOST_UNREACHABLE = 0x04;

/** The client half of a SOCKS5 CONNECT by name; resolves once the guard answered. */
async function socksConnect(socket: Socket, host: string, port: number): Promise<DialResult> {
  const read = bufferedReader(socket);
  socket.write(Buffer.from([5, 1, 0]));
  const [version, method] = await read(2);
  if (version !== 5 || method !== 0) return { errorCode: 'ECONNRESET' };
  const name = Buffer.from(host.replace(/^\[|\]$/g, ''), 'latin1');
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16BE(port, 0);
  socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, name.length]), name, portBytes]));
  const reply = await read(10);
  const code = reply[1];
  const rest = read.release();
  if (code === 0) {
    // Anything the destination sent right after the reply stays in front of the stream.
    if (rest.length > 0) socket.unshift(rest);
    return { socket };
  }
  if (code === REPLY_NOT_ALLOWED) return { errorCode: 'ERULESET' };
  if (code === REPLY_HOST_UNREACHABLE) return { errorCode: 'ENOTFOUND' };
  return { errorCode: 'ECONNREFUSED' };
}

type Reader = ((n: number) => Promise<Buffer>) & { release(): Buffer };

function bufferedReader(socket: Socket): Reader {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  };
  const onEnd = (): void => wake?.();
  socket.on('data', onData);
  socket.on('close', onEnd);
  const read = async (n: number): Promise<Buffer> => {
    while (buffered.length < n) {
      if (socket.destroyed || socket.readableEnded) throw new Error('closed');
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
  const release = (): Buffer => {
    socket.off('data', onData);
    socket.off('close', onEnd);
    // Paused so no byte is lost before the tunnel attaches its own reader.
    socket.pause();
    return buffered;
  };
  return Object.assign(read, { release });
}
