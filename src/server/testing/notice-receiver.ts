import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TRawNotice } from '../providers/payments';

/** A notice URL for a provider's simulator: keeps each notice as it arrived, and answers 200. */
export type TNoticeReceiver = {
  url: string;
  /** Every notice received, in order: its raw body and its headers. */
  received: TRawNotice[];
  close(): Promise<void>;
};

const bodyOf = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

export async function startNoticeReceiver(): Promise<TNoticeReceiver> {
  const received: TRawNotice[] = [];
  const server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      received.push({ body, headers: { ...request.headers } });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notices`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
