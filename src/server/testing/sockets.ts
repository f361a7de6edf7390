import { connect } from 'node:net';

/**
 * Whether a TCP connection to host:port is accepted within `timeoutMs`: one refused on this machine
 * is answered at once, and the limit is for one that never answers, sized for a loaded machine
 * whose event loop may reach the connection late.
 */
export const accepts = (host: string, port: number, timeoutMs = 30_000) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
