// POST /api/sandbox/people (docs/sandbox.md "Minting a person"): a fresh person of the sandbox's
// BVN registry whose accounts and cards every sandbox lookup finds as it finds the fixtures'.
import { describe, expect, it } from 'vitest';
import { detectCardBrand } from '../../../domain/card-brand';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { isValidNuban } from '../../../domain/nuban';
import { ZSandboxPersonResponse } from '../../../domain/schemas/sandbox';
import { bankName } from '../bank-directory';
import {
  ACCOUNT_SCENARIOS,
  CARD_SCENARIOS,
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  SANDBOX_PEOPLE,
} from '../fixtures';
import { startPluginApp } from '../../testing/plugin-app';
import { mintPerson, personAccount, personCard } from '../../testing/sandbox-people';
import { useTestApp } from '../../testing/test-app';
import { sandboxPeopleRoutes } from './sandbox-people';
import { usable } from '../../providers/off';

const test = useTestApp();

const payments = () => test.context.providers.payments;

const luhnValid = (digits: string) =>
  [...digits].reverse().reduce((sum, d, i) => {
    const doubled = i % 2 === 1 ? Number(d) * 2 : Number(d);
    return sum + (doubled > 9 ? doubled - 9 : doubled);
  }, 0) %
    10 ===
  0;

const post = (payload?: unknown) =>
  test.app.inject({
    method: 'POST',
    url: '/api/sandbox/people',
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('POST /api/sandbox/people', () => {
  it('mints a person with a new BVN registered to the phone given, an account per account scenario and a card per card scenario', async () => {
    const response = await post({ fullName: 'Kemi Adeyemi', phoneNumber: '0803 555 0101' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(ZSandboxPersonResponse.parse(body)).toEqual(body);
    const { person } = body as { person: Awaited<ReturnType<typeof mintPerson>> };
    expect(person).toMatchObject({ fullName: 'Kemi Adeyemi', phoneNumber: '+2348035550101' });
    expect(person.bvn).toMatch(/^\d{11}$/);
    expect(SANDBOX_PEOPLE.map((p) => p.bvn)).not.toContain(person.bvn);
    expect(new Date(`${person.dateOfBirth}T00:00:00Z`).toISOString().slice(0, 10)).toBe(
      person.dateOfBirth,
    );

    expect(person.accounts.map((a) => a.scenario)).toEqual([...ACCOUNT_SCENARIOS]);
    for (const account of person.accounts) {
      const fixture = SANDBOX_ACCOUNTS.find((a) => a.scenario === account.scenario);
      expect(account.institutionCode).toBe(fixture?.institutionCode);
      expect(account.bankName).toBe(bankName(account.institutionCode));
      expect(account.accountName).toBe('Kemi Adeyemi');
      expect(isValidNuban(account.institutionCode, account.accountNumber)).toBe(true);
      expect(SANDBOX_ACCOUNTS.map((a) => a.accountNumber)).not.toContain(account.accountNumber);
    }

    // A card per scenario, then, as Tunde Bakare's fixtures, one that goes through on the
    // account that lacks funds.
    expect(person.cards.map((c) => c.scenario)).toEqual([...CARD_SCENARIOS, 'pin_only']);
    const poor = person.accounts.find((a) => a.scenario === 'insufficient_funds');
    expect(person.cards.at(-1)?.account).toEqual({
      institutionCode: poor?.institutionCode,
      accountNumber: poor?.accountNumber,
    });
    for (const card of person.cards.slice(0, CARD_SCENARIOS.length)) {
      const fixture = SANDBOX_CARDS.find((c) => c.scenario === card.scenario);
      const fixtureAccount = SANDBOX_ACCOUNTS.find(
        (a) => a.accountNumber === fixture?.account.accountNumber,
      );
      expect(luhnValid(card.number), card.number).toBe(true);
      expect(detectCardBrand(card.number)).toBe(fixture?.brand);
      expect(card).toMatchObject({
        expiry: fixture?.expiry,
        cvv: fixture?.cvv,
        pin: fixture?.pin,
        otp: fixture?.otp,
      });
      const issuedOn = person.accounts.find((a) => a.scenario === fixtureAccount?.scenario);
      expect(card.account).toEqual({
        institutionCode: issuedOn?.institutionCode,
        accountNumber: issuedOn?.accountNumber,
      });
    }
  });

  it('mints someone new each time, with or without a body: another BVN, phone, accounts and cards', async () => {
    const bare = await post();
    expect(bare.statusCode).toBe(200);
    const [first, second] = [bare.json().person, await mintPerson(test.app)];
    expect(first.fullName).not.toBe('');
    expect(first.phoneNumber).toMatch(/^\+234[789][01]\d{8}$/);
    expect(second.bvn).not.toBe(first.bvn);
    expect(second.phoneNumber).not.toBe(first.phoneNumber);
    const numbers = (p: typeof first) => [
      ...p.accounts.map((a: { accountNumber: string }) => a.accountNumber),
      ...p.cards.map((c: { number: string }) => c.number),
    ];
    expect(numbers(second).filter((n) => numbers(first).includes(n))).toEqual([]);
  });

  it('names the holder and their BVN at name enquiry, with the scenario’s integrations, and the registry answers the BVN', async () => {
    const person = await mintPerson(test.app, { fullName: 'Obinna Umeh' });
    for (const account of person.accounts) {
      const bank = SANDBOX_BANKS.find((b) => b.institutionCode === account.institutionCode);
      expect(await usable(payments().banks).nameEnquiry(account)).toEqual({
        accountName: 'Obinna Umeh',
        bvn: person.bvn,
        nameEnquiryId: expect.any(String),
        integrations: account.scenario === 'not_supported' ? [] : bank?.integrations,
      });
    }
    for (const account of person.accounts) {
      expect(await usable(payments().bvn).accountOwner(account)).toBe(person.bvn);
    }
    expect(await usable(payments().bvn).startVerification(person.bvn)).toMatchObject({
      methods: [{ id: 'phone', hint: expect.stringContaining(person.phoneNumber.slice(-4)) }],
    });
    expect(await usable(payments().bvn).startVerification('00000000000')).toBeNull();
  });

  it('says a minted card is issued on its own account only', async () => {
    const person = await mintPerson(test.app);
    const other = await mintPerson(test.app);
    const card = personCard(person, 'pin_only');
    const own = personAccount(person, 'links_by_card');
    const onAccount = (number: string, at: { institutionCode: string; accountNumber: string }) =>
      usable(payments().cards).isCardOnAccount({ card: { number }, ...at });
    expect(card.account).toEqual({
      institutionCode: own.institutionCode,
      accountNumber: own.accountNumber,
    });
    expect(await onAccount(card.number, own)).toBe(true);
    expect(await onAccount(card.number, personAccount(other, 'links_by_card'))).toBe(false);
    const fixtureCardAccount = SANDBOX_CARDS[0]!.account;
    expect(await onAccount(card.number, fixtureCardAccount)).toBe(false);
    expect(await onAccount(SANDBOX_CARDS[0]!.number, own)).toBe(false);
    const poor = personAccount(person, 'insufficient_funds');
    expect(await onAccount(personCard(person, 'insufficient_funds').number, poor)).toBe(true);
  });

  it('opens an alternate-service mandate on the minted auth-parameters account, verified by its answers', async () => {
    const person = await mintPerson(test.app);
    const account = personAccount(person, 'links_by_auth_params');
    const mandate = await usable(payments().mandates).requestAltMandate({
      reference: 'alk_minted_1',
      ...account,
    });
    expect(mandate).toMatchObject({ authReference: expect.any(String) });
    const verify = (otp: string) =>
      usable(payments().mandates).verifyAltMandate({
        authReference: mandate?.authReference ?? '',
        reference: 'alk_minted_1',
        providerReference: null,
        ...account,
        answers: [
          { param: 'CARD', value: '4321' },
          { param: 'OTP', value: otp },
        ],
      });
    expect(await verify('123456')).toEqual({ verified: true });
    expect(await verify('654321')).toEqual({ verified: false });
  });

  it('sends a transfer from a minted account as from a test account, and refuses one from a number no one holds', async () => {
    const person = await mintPerson(test.app);
    const { institutionCode, accountNumber } = personAccount(person, 'links_by_test_transfer');
    const send = (from: { institutionCode: string; accountNumber: string }) =>
      test.app.inject({
        method: 'POST',
        url: '/api/sandbox/transfers',
        payload: { accountNumber: '1250000000', amount: 250_000, from },
      });
    const sent = await send({ institutionCode, accountNumber });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ success: true, outcome: 'returned_unknown_account' });
    const unknown = `${accountNumber.slice(0, 9)}${(Number(accountNumber[9]) + 1) % 10}`;
    const refused = await send({ institutionCode, accountNumber: unknown });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses a phone that is not a Nigerian mobile, a blank name and an unknown field, in the catalogue’s shape', async () => {
    const phone = await post({ phoneNumber: '+44 20 7946 0000' });
    expect(phone.statusCode).toBe(400);
    expect(phone.json()).toEqual({
      success: false,
      error: {
        code: 'PHONE_NUMBER_INVALID',
        message: ERROR_CATALOGUE.PHONE_NUMBER_INVALID.message,
      },
    });
    for (const payload of [{ fullName: '   ' }, { fullName: 'x'.repeat(101) }, { bvn: '1' }]) {
      const refused = await post(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_FAILED', message: expect.any(String) },
      });
    }
  });

  it('does not exist without the sandbox', async () => {
    const real = await startPluginApp(sandboxPeopleRoutes, { sandbox: null });
    try {
      const response = await real.app.inject({ method: 'POST', url: '/api/sandbox/people' });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    } finally {
      await real.close();
    }
  });
});
