// The Remita adapter against Remita itself (its demo host unless REMITA_TEST_BASE_URL names
// another): what only Remita can confirm of what the simulator plays. Opt-in: it runs only where
// REMITA_TEST_API_KEY is set (vitest.config.ts leaves it out otherwise, and .ci/run says that it
// did not run). The SDKs' published demo credentials work on https://remitademo.net. It sets up
// mandates on REMITA_TEST_ACCOUNT (bank REMITA_TEST_BANK_CODE), moves no money, and stops nothing
// that was active.
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { onePayoutsPort } from '../../testing/one-payouts-port';
import { openTestDatabase } from '../../testing/test-app';
import { contractMandateTerms } from '../contract/contract-references';
import type { TPayoutsPort } from '../payments';
import { ProviderNoAnswer } from '../provider-call';
import { remitaCalls } from './remita-calls';
import { remitaProvider } from './remita-provider';

const need = (name: string) => {
  const value = process.env[name] ?? '';
  if (!value) throw new Error(`${name} must be set for the Remita check`);
  return value;
};
const credentials = {
  apiKey: need('REMITA_TEST_API_KEY'),
  merchantId: need('REMITA_TEST_MERCHANT_ID'),
  serviceTypeId: need('REMITA_TEST_SERVICE_TYPE_ID'),
  apiToken: need('REMITA_TEST_API_TOKEN'),
  baseUrl: process.env.REMITA_TEST_BASE_URL ?? 'https://remitademo.net',
};
const account = {
  institutionCode: process.env.REMITA_TEST_BANK_CODE ?? '057',
  accountNumber: process.env.REMITA_TEST_ACCOUNT ?? '0035509366',
};
const payer = {
  id: 'pyr_remita_check',
  fullName: 'Oya Money Check',
  phoneNumber: '+2348012345678',
};

// Nothing here pays out: a give-back would be a bug.
const noPayouts: TPayoutsPort = {
  provider: 'none',
  payOut: () => Promise.reject(new Error('The Remita check pays nothing out')),
  requeryPayout: async () => ({ kind: 'not_taken', providerReference: null, reason: 'none' }),
};

const database = await openTestDatabase();
afterAll(() => database.close());

const remita = remitaProvider({
  credentials,
  db: database.db,
  clock: systemClock,
  payouts: onePayoutsPort(noPayouts),
});
const reference = (what: string) => `oya-check-${what}-${Date.now()}`;

describe('Remita itself', () => {
  it('sets up a mandate on its printable form, pending until the bank activates it', async () => {
    const ref = reference('paper');
    const opened = await remita.own.openPaperMandate({
      ...{ reference: ref, ...account, payer },
      terms: contractMandateTerms(),
    });
    expect(opened.providerReference).toMatch(/\S/);
    const form = await fetch(opened.formUrl);
    expect(form.status).toBe(200);
    expect(
      await remita.paperMandateStatus({
        reference: ref,
        issuedAt: new Date(),
        providerReference: opened.providerReference,
      }),
    ).toBe('pending');
    // Never activated: stopping it changes nothing. Remita stops active mandates only (PDF
    // section 8): 061 and a status not active, or it stops it anyway.
    expect(['not_active', 'stopped']).toContain(
      await remita.own.stopMandate({ providerReference: opened.providerReference, reference: ref }),
    );
  });

  it('answers the OTP activation with auth parameters, or none for a bank that activates at the branch', async () => {
    const mandate = await remita.requestAltMandate({
      reference: reference('otp'),
      ...account,
      payer,
      terms: contractMandateTerms(),
    });
    if (mandate) {
      expect(mandate.authReference).toMatch(/\S/);
      expect(mandate.authParams.map((p) => p.param1)).toContain('OTP');
      const wrong = await remita.verifyAltMandate({
        authReference: mandate.authReference,
        reference: mandate.requestId,
        providerReference: mandate.providerReference ?? null,
        ...account,
        answers: [
          { param: 'OTP', value: '000000' },
          { param: 'CARD', value: '0000' },
        ],
      });
      expect(wrong).toEqual({ verified: false });
    }
  });

  it('has no debit by a reference never sent, and refuses a wrong hash', async () => {
    const ref = reference('never');
    const opened = await remita.own.openPaperMandate({
      ...{ reference: ref, ...account, payer },
      terms: contractMandateTerms(),
    });
    expect(await remita.own.debits.requeryDebit(ref, opened.providerReference)).toMatchObject({
      kind: 'not_taken',
    });
    const wrongKey = remitaCalls({ ...credentials, apiKey: `${credentials.apiKey}x` });
    await expect(
      wrongKey.call('status', {
        merchantId: credentials.merchantId,
        mandateId: '1',
        requestId: ref,
        hash: 'x',
      }),
    ).rejects.toBeInstanceOf(ProviderNoAnswer);
  });
});
