// Who looked at the payer's BVN (docs/payer-consents.md "Who looked at your BVN"): each lookup
// made with the payer's BVN or accounts is on their list, the registry's verification, an
// account's owner looked up as it is linked, and a merchant's read of the BVN a consent shares,
// with which merchant received what. Only the payer's own, and never the BVN.
import { describe, expect, it } from 'vitest';
import type { TBvnLookup } from '../../domain/schemas/payer-protections';
import { ownAccount, ownPerson } from '../testing/bvn';
import { provenPayer, signedGrant } from '../testing/identity';
import { linkByTestTransfer } from '../testing/payments';
import { createTestClient, useTestApp, testClock } from '../testing/test-app';

const clock = testClock('2031-06-02T09:00:00Z');
const ctx = useTestApp({ clock });

type TPayer = Awaited<ReturnType<typeof provenPayer>>;

const lookupsOf = async (payer: { headers: Record<string, string> }, query = '') => {
  const listed = await ctx.app.inject({
    method: 'GET',
    url: `/api/users/bvn-lookups${query}`,
    headers: payer.headers,
  });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ lookups: TBvnLookup[]; nextCursor: string | null }>();
};

/** A merchant's consent asking for the payer's BVN and full name, granted by `payer`. */
async function consentSharingBvn(payer: TPayer) {
  const merchant = await createTestClient(ctx.database, { name: 'Tola Lending' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: [],
      dataSharing: { bvnData: ['fullName'] },
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    dataSharing: { granted: true, dataTypes: ['bvnData'] },
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  return { merchant, consentId };
}

describe('GET /api/users/bvn-lookups', () => {
  it('lists the registry’s verification of the payer’s BVN, and nothing of the BVN', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    expect((await lookupsOf(payer)).lookups).toEqual([]);
    const person = await ownPerson(ctx.app, payer.token);
    const listed = await lookupsOf(payer);
    expect(listed.lookups).toEqual([
      {
        lookupId: expect.stringMatching(/^bvl_/),
        kind: 'bvn_verification',
        at: clock.now().toISOString(),
        provider: 'sandbox',
        consentId: null,
        merchant: null,
        account: null,
        items: [],
        madeFor: { consentId: null, accountId: null, label: 'Verifying your BVN' },
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(person.bvn);
  });

  it('lists the lookup of an account’s owner made as the payer links it, the number masked', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const person = await ownPerson(ctx.app, payer.token);
    const account = person.accounts.find((a) => a.scenario === 'links_by_test_transfer');
    const { lookups } = await lookupsOf(payer);
    const owner = lookups.filter((lookup) => lookup.kind === 'account_owner');
    const masked = `****${account?.accountNumber.slice(-4)}`;
    expect(owner).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        account: { bankName: expect.any(String), accountNumber: masked },
        // Made for the link of that account, which the payer's list of accounts names.
        madeFor: {
          consentId: null,
          accountId,
          label: `Linking ${owner[0]?.account?.bankName} ${masked}`,
        },
      }),
    ]);
    expect(JSON.stringify(lookups)).not.toContain(account?.accountNumber);
  });

  it('lists each read of the shared BVN: which merchant received what, for which consent', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    const person = await ownPerson(ctx.app, payer.token);
    const { merchant, consentId } = await consentSharingBvn(payer);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}/shared-data/bvn`,
      headers: { authorization: merchant.authorization },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ bvn: { bvn: person.bvn, fullName: expect.any(String) } });
    const { lookups } = await lookupsOf(payer);
    expect(lookups.filter((lookup) => lookup.kind === 'data_shared')).toEqual([
      expect.objectContaining({
        consentId,
        provider: null,
        merchant: { merchantId: expect.any(String), name: 'Tola Lending' },
        items: ['bvn', 'fullName'],
        madeFor: { consentId, accountId: null, label: 'Your consent to Tola Lending' },
      }),
    ]);
    // A read refused (another client's consent) handed nothing over, and is not listed.
    const stranger = await createTestClient(ctx.database, { name: 'Someone Else' });
    const refused = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}/shared-data/bvn`,
      headers: { authorization: stranger.authorization },
    });
    expect(refused.statusCode).toBe(404);
    expect((await lookupsOf(payer)).lookups.filter((l) => l.kind === 'data_shared')).toHaveLength(
      1,
    );
  });

  it('names the consent a link was made for beside the account', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    const merchant = await createTestClient(ctx.database, { name: 'Kano Credit' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: merchant.authorization },
      payload: { payments: [], dataSharing: { bvnData: ['fullName'] } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const consentId = created.json<{ consentId: string }>().consentId;
    const { accountNumber, institutionCode, accountName } = await ownAccount(
      ctx.app,
      payer.token,
      'links_by_test_transfer',
    );
    const linked = await ctx.app.inject({
      method: 'POST',
      url: '/api/account-links/create',
      headers: payer.headers,
      payload: { accountNumber, institutionCode, accountName, bankName: 'Any Bank', consentId },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const [owner] = (await lookupsOf(payer)).lookups.filter((l) => l.kind === 'account_owner');
    expect(owner?.consentId).toBe(consentId);
    expect(owner?.madeFor).toEqual({
      consentId,
      accountId: expect.any(String),
      label: `Linking ${owner?.account?.bankName} ****${accountNumber.slice(-4)} for your consent to Kano Credit`,
    });
  });

  it('shows a payer only their own lookups, a page at a time', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const other = await provenPayer(ctx.app, ctx.config);
    expect((await lookupsOf(other)).lookups).toEqual([]);
    const first = await lookupsOf(payer, '?limit=1');
    expect(first.lookups).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = await lookupsOf(payer, `?limit=1&cursor=${first.nextCursor ?? ''}`);
    expect(second.lookups).toHaveLength(1);
    expect(second.lookups[0]?.lookupId).not.toBe(first.lookups[0]?.lookupId);
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/api/users/bvn-lookups' });
    expect(signedOut.statusCode).toBe(401);
  });
});
