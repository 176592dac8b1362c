import { connect } from 'node:net';

/**
 * Sends a SOCKS5 greeting (no authentication) to a guard listener on 127.0.0.1:port, from
 * `localAddress` when given (a loopback alias): the reply bytes in hex (`0500` from a guard that
 * answered), or 'closed' when it hung up without answering.
 */
export function greetGuard(port: number, localAddress?: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      ...(localAddress === undefined ? {} : { localAddress }),
    });
    socket.once('connect', () => socket.write(Buffer.from([5, 1, 0])));
    socket.once('data', (reply) => {
      resolve(reply.toString('hex'));
      socket.destroy();
    });
    socket.once('close', () => resolve('closed'));
    socket.on('error', () => undefined);
  });
}
