// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody } from '../../../domain/errors';
import { nameCorrection, PAYER_RIGHTS_TEXTS as T } from '../../../domain/payer-rights';
import type { TPayerRightsResponse } from '../../../domain/schemas/payer-rights';
import { PayerDataRights } from './payer-data-rights';

// 'Correct my name' on /consents (docs/payer-rights.md): a name the payer's BVN verified is not
// offered for correction, and the page says why in the words the server gives (the domain's
// nameCorrection); a name verified after the page was drawn is refused on save, in the
// catalogue's words, and the page then says why.

const VERIFIED = nameCorrection({ bvnVerified: true });
const WHY = VERIFIED.correctable ? '' : VERIFIED.why;

const rights = (bvnVerified: boolean): TPayerRightsResponse => ({
  success: true,
  requests: [],
  name: {
    fullName: 'Adaeze Okonkwo',
    correctable: !bvnVerified,
    whyNot: bvnVerified ? WHY : null,
  },
});

/**
 * The server: GET /api/users/data-requests answers the payer's name's rule (`bvnVerified`, which
 * a save may turn on: the BVN verified meanwhile); PUT /api/users/name answers `saveAnswer`.
 */
function server(bvnVerified: boolean, saveAnswer?: { status: number; body: unknown }) {
  let verified = bvnVerified;
  const saves: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/users/data-requests' && (init?.method ?? 'GET') === 'GET') {
        return new Response(JSON.stringify(rights(verified)), { status: 200 });
      }
      if (url === '/api/users/name' && init?.method === 'PUT' && saveAnswer) {
        saves.push(JSON.parse(init.body as string));
        verified = true;
        return new Response(JSON.stringify(saveAnswer.body), { status: saveAnswer.status });
      }
      throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
    }),
  );
  return saves;
}

const drawn = () =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <PayerDataRights
        signErasure={() => Promise.reject(new Error('no erasure is asked here'))}
        onErasureAsked={() => {}}
      />
    </QueryClientProvider>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Correct my name', () => {
  it('says why a name the BVN verified cannot be corrected, and offers no form', async () => {
    server(true);
    drawn();
    expect(
      await screen.findByText(
        'Your name was verified with your BVN, so it is the name your bank holds. To correct it, ask your bank to correct your BVN record.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: T.correctName })).toBeTruthy();
    expect(screen.queryByLabelText(T.nameLabel)).toBeNull();
    expect(screen.queryByRole('button', { name: T.saveName })).toBeNull();
  });

  it('shows the refusal of a name verified since the page was drawn, then why', async () => {
    const saves = server(false, { status: 409, body: errorBody('NAME_NOT_CORRECTABLE') });
    drawn();
    fireEvent.change(await screen.findByLabelText(T.nameLabel), {
      target: { value: 'Someone Else' },
    });
    fireEvent.click(screen.getByRole('button', { name: T.saveName }));
    expect(
      await screen.findByText(
        'Your name was verified with your BVN: ask your bank to correct your BVN record',
      ),
    ).toBeTruthy();
    expect(saves).toEqual([{ fullName: 'Someone Else' }]);
    // Read again, the page says why and no longer offers the form.
    expect(await screen.findByText(WHY)).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText(T.nameLabel)).toBeNull());
  });
});
