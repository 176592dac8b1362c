/** Probes of a session's guard listener on 127.0.0.1, for the guard tests of remote browsers. */
import { connect } from 'node:net';
import { greetGuard } from '../../helpers/socks-probe.js';

/** Sends a SOCKS5 greeting to 127.0.0.1:port from `localAddress`: the reply in hex, or 'closed'. */
export function greetFrom(port: number, localAddress: string): Promise<string> {
  return greetGuard(port, localAddress);
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
