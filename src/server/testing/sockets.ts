import { connect } from 'node:net';

/** Whether a TCP connection to host:port is accepted within `timeoutMs`. */
export const accepts = (host: string, port: number, timeoutMs = 2_000) =>
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
