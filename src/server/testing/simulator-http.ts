// What every provider simulator's HTTP server does alike: read a request's body and headers,
// listen on the loopback, and close with its connections.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request's whole body, as text. */
export const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/** The request's headers, each one string, by its lower-case name. */
export const headersOf = (request: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));

/** Listens on 127.0.0.1 (`port` 0: any free one); resolves its URL, http://127.0.0.1:PORT. */
export async function listenLocally(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection it holds (a held request's too). */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
