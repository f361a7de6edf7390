// The consent's first screen renders on a server (issue 31 item 1 starts here): the page's own
// route, its lazy chunks awaited, from the answer the page would fetch, with no window. What the
// server must hand the browser for it: the consent read and the public config, seeded below.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import type { TConsent } from '../domain/schemas/consent';
import { aConsent, aPayment } from '../domain/test-support/fixtures';
import { consentQueryKey } from './api/consent';
import { AppRoutes } from './app/router';

async function renderOnServer(consent: TConsent, search: string): Promise<string> {
  const client = new QueryClient();
  client.setQueryData(consentQueryKey(consent.consentId, 'cli_1'), {
    success: true,
    consent,
    embedOrigins: [],
  });
  client.setQueryData(['public-config'], {
    success: true,
    productName: 'Oya Money',
    debugTools: false,
    sandbox: true,
  });
  const { prelude } = await prerenderToNodeStream(
    <QueryClientProvider client={client}>
      <Router ssrPath={`/r/${consent.consentId}`} ssrSearch={search}>
        <AppRoutes />
      </Router>
    </QueryClientProvider>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

describe('the consent page on a server', () => {
  it('renders what the consent asks for from the answer it would fetch: no Loading screen, no part left to the client', async () => {
    const consent = aConsent({
      consentId: 'cns_1',
      payments: [aPayment({ paymentId: 'pay_1', narration: 'Monthly dues' })],
      dataSharing: { bvnData: true, ninData: false, userImages: false, bankAccounts: false },
    });
    const html = await renderOnServer(consent, 'clientId=cli_1');
    expect(html).toContain('They would like to:');
    expect(html).toContain('FitLife Gym');
    expect(html).not.toContain('Loading consent...');
    // A part that failed on the server is marked for client rendering (<!--$!-->): none here.
    expect(html).not.toContain('<!--$!-->');
  });
});
