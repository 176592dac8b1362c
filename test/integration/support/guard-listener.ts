/** Probes of a session's guard listener on 127.0.0.1, for the guard tests of remote browsers. */
import { connect } from 'node:net';

/** Sends a SOCKS5 greeting to 127.0.0.1:port from `localAddress`: the reply in hex, or 'closed'. */
export async function greetFrom(port: number, localAddress: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.once('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.once('data', (reply) => {
      resolve(reply.toString('hex'));
      socket.destroy();
    });
    socket.once('close', () => resolve('closed'));
    socket.on('error', () => undefined);
  });
}

/** Whether nothing listens on 127.0.0.1:port any more. */
export async function refusedAt(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
