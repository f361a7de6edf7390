// The contract of the PaymentProvider port: every adapter (the sandbox network today, a real
// provider's test mode later) passes this suite, run by sandbox/sandbox-card-network.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TChipCardScenario } from '../sandbox/fixtures';
import type { TCardScenario } from '../sandbox/sandbox-card-network';
import type {
  TBvnRecord,
  TCardChargeOutcome,
  TChipPurchase,
  TPaymentProvider,
  TPlainCard,
  TTerminalReader,
} from './payments';

export type TPaymentProviderUnderTest = {
  provider: TPaymentProvider;
  /** A test card of the provider's that takes this path, with its PIN and OTP. */
  cardFor(scenario: TCardScenario): { card: TPlainCard; otp: string };
  /** The bank account the `pin_only` card draws on (knownAccount is another). */
  cardAccount: { institutionCode: string; accountNumber: string };
  /** An account the provider's name enquiry finds, with its holder's BVN. */
  knownAccount: {
    institutionCode: string;
    accountNumber: string;
    accountName: string;
    bvn: string;
  };
  /** What the BVN registry holds for knownAccount's BVN. */
  knownHolder: TBvnRecord;
  /** An account whose balance cannot cover a debit of ₦10,000.00 (and one that can: knownAccount). */
  poorAccount: { institutionCode: string; accountNumber: string };
  /** An account the alternate service mandates, and the right answers to its auth parameters. */
  altAccount: {
    institutionCode: string;
    accountNumber: string;
    answers: Array<{ param: string; value: string }>;
  };
  /** Answers a 3-D Secure challenge as the payer would on the issuer's page. */
  answerThreeDs(
    outcome: Extract<TCardChargeOutcome, { kind: 'three_ds_required' }>,
    approved: boolean,
  ): Promise<TCardChargeOutcome>;
  /** A card reader the acquirer registered. */
  reader: TTerminalReader;
  /**
   * A purchase as that reader reads a chip card of the scenario for `amount` kobo, its PIN
   * entered (the card's own unless `pin`), without our reference.
   */
  chipPurchaseFor(
    scenario: Exclude<TChipCardScenario, 'magstripe_only'>,
    amount: number,
    pin?: string,
  ): Omit<TChipPurchase, 'reference'>;
  /** The chip data with one tag's value changed after the card signed it. */
  tamper(iccData: string, tag: string, value: string): string;
};

/** A BVN no registry holds: 11 digits, never issued. */
const UNKNOWN_BVN = '00000000000';

let seq = 0;
const reference = () => `att_contract_${Date.now()}_${(seq += 1)}`;

export function paymentProviderContract(
  adapter: string,
  make: () => Promise<TPaymentProviderUnderTest>,
) {
  describe(`PaymentProvider port contract: ${adapter}`, () => {
    let underTest: TPaymentProviderUnderTest;
    let provider: TPaymentProvider;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });
    const charge = (scenario: TCardScenario, change: Partial<TPlainCard> = {}) => {
      const { card } = underTest.cardFor(scenario);
      return provider.chargeCard({
        reference: reference(),
        amount: 250_000,
        narration: 'Order 17',
        card: { ...card, ...change },
      });
    };

    it('charges a PIN card with its PIN, and names the card by brand, first 6 and last 4', async () => {
      const { card } = underTest.cardFor('pin_only');
      const outcome = await charge('pin_only');
      expect(outcome).toMatchObject({
        kind: 'succeeded',
        card: { first6: card.number.slice(0, 6), last4: card.number.slice(-4) },
      });
      expect(outcome.kind === 'succeeded' && outcome.providerReference).toBeTruthy();
    });

    it('hands a token for the card with a succeeded charge, one per charge, never its number', async () => {
      const { card } = underTest.cardFor('pin_only');
      const [first, second] = [await charge('pin_only'), await charge('pin_only')];
      if (first.kind !== 'succeeded' || second.kind !== 'succeeded') throw new Error('not paid');
      expect(first.token).toEqual(expect.any(String));
      expect(first.token).not.toBe(second.token);
      expect(first.token).not.toContain(card.number);
    });

    it('says a card draws on its own account only, by its number or a succeeded charge’s token', async () => {
      const { card } = underTest.cardFor('pin_only');
      const own = underTest.cardAccount;
      const other = underTest.knownAccount;
      const byNumber = { number: card.number };
      expect(await provider.isCardOnAccount({ card: byNumber, ...own })).toBe(true);
      expect(await provider.isCardOnAccount({ card: byNumber, ...other })).toBe(false);
      const paid = await charge('pin_only');
      if (paid.kind !== 'succeeded' || !paid.token) throw new Error('no token');
      expect(await provider.isCardOnAccount({ card: { token: paid.token }, ...own })).toBe(true);
      expect(await provider.isCardOnAccount({ card: { token: paid.token }, ...other })).toBe(false);
      expect(await provider.isCardOnAccount({ card: { number: '4111111111111111' }, ...own })).toBe(
        false,
      );
    });

    it('fails a charge with the wrong PIN', async () => {
      expect(await charge('pin_only', { pin: '0000' })).toMatchObject({
        kind: 'failed',
        reason: 'incorrect_pin',
      });
    });

    it('asks for an OTP, then completes with the right one', async () => {
      const outcome = await charge('pin_otp');
      expect(outcome.kind).toBe('otp_required');
      if (outcome.kind !== 'otp_required') return;
      expect(outcome.displayMessage).not.toBe('');
      const done = await provider.submitCardOtp({
        providerReference: outcome.providerReference,
        otp: underTest.cardFor('pin_otp').otp,
      });
      expect(done).toMatchObject({ kind: 'succeeded' });
    });

    it('fails a charge whose OTP is wrong', async () => {
      const outcome = await charge('pin_otp');
      if (outcome.kind !== 'otp_required') throw new Error(`expected an OTP, got ${outcome.kind}`);
      const wrong = underTest.cardFor('pin_otp').otp === '000000' ? '111111' : '000000';
      expect(
        await provider.submitCardOtp({ providerReference: outcome.providerReference, otp: wrong }),
      ).toMatchObject({ kind: 'failed', reason: 'incorrect_otp' });
    });

    it('raises a 3-D Secure challenge, approved or declined by the payer', async () => {
      const first = await charge('three_ds');
      const second = await charge('three_ds');
      if (first.kind !== 'three_ds_required' || second.kind !== 'three_ds_required') {
        throw new Error(`expected 3-D Secure, got ${first.kind} and ${second.kind}`);
      }
      expect(first.challengeUrl).toMatch(/^https?:\/\//);
      expect(await underTest.answerThreeDs(first, true)).toMatchObject({ kind: 'succeeded' });
      expect(await underTest.answerThreeDs(second, false)).toMatchObject({
        kind: 'failed',
        reason: 'three_ds_declined',
      });
    });

    it.each([
      ['declined', 'declined'],
      ['insufficient_funds', 'insufficient_funds'],
      ['timeout', 'timeout'],
    ] as const)('fails a %s card with reason %s', async (scenario, reason) => {
      expect(await charge(scenario)).toMatchObject({ kind: 'failed', reason });
    });

    it('refuses a wrong expiry or CVV, and a card it does not know, without a reference', async () => {
      expect(await charge('pin_only', { cvv: '000' })).toMatchObject({
        kind: 'failed',
        providerReference: null,
      });
      expect(await charge('pin_only', { expiry: '01/20' })).toMatchObject({ kind: 'failed' });
      expect(await charge('pin_only', { number: '4000000000000002', pin: '1234' })).toMatchObject({
        kind: 'failed',
        providerReference: null,
      });
    });

    it('refunds a succeeded charge, and a repeated refund is the same refund', async () => {
      const paid = await charge('pin_only');
      if (paid.kind !== 'succeeded') throw new Error(`expected success, got ${paid.kind}`);
      const refund = {
        providerReference: paid.providerReference,
        amount: 250_000,
        reference: 'r1',
      };
      expect(await provider.refundCard(refund)).toEqual({ refunded: true });
      expect(await provider.refundCard(refund)).toEqual({ refunded: true });
    });

    it('opens one one-time account per reference, a NUBAN that expires later', async () => {
      const request = { reference: reference(), amount: 250_000, accountName: 'Tola Stores' };
      const account = await provider.openTransferAccount(request);
      expect(account.accountNumber).toMatch(/^\d{10}$/);
      expect(account.bankName).not.toBe('');
      expect(account.accountName).toBe('Tola Stores');
      expect(account.expiresAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(await provider.openTransferAccount(request)).toEqual(account);
      const other = await provider.openTransferAccount({ ...request, reference: reference() });
      expect(other.accountNumber).not.toBe(account.accountNumber);
    });

    it('closes a one-time account at `notAfter` when that comes before its own expiry', async () => {
      const request = { reference: reference(), amount: 250_000, accountName: 'Tola Stores' };
      const own = await provider.openTransferAccount(request);
      const notAfter = new Date(Date.now() + 60_000);
      const early = await provider.openTransferAccount({
        ...request,
        reference: reference(),
        notAfter,
      });
      expect(early.expiresAt.getTime()).toBeLessThanOrEqual(notAfter.getTime());
      const later = new Date(own.expiresAt.getTime() + 24 * 60 * 60_000);
      const kept = await provider.openTransferAccount({
        ...request,
        reference: reference(),
        notAfter: later,
      });
      expect(kept.expiresAt.getTime()).toBeLessThan(later.getTime());
    });

    it('gives back no card number in anything it answers', async () => {
      const numbers = (['pin_only', 'pin_otp', 'three_ds', 'declined'] as const).map(
        (scenario) => underTest.cardFor(scenario).card.number,
      );
      const text = JSON.stringify([
        await charge('pin_only'),
        await charge('pin_otp'),
        await charge('three_ds'),
        await charge('declined'),
      ]);
      for (const number of numbers) expect(text).not.toContain(number);
    });

    it('finds a bank by its code with the ways it links accounts, and no bank for an unknown code', async () => {
      const { institutionCode } = underTest.knownAccount;
      const bank = await provider.lookupBank(institutionCode);
      expect(bank).toMatchObject({ institutionCode, name: expect.any(String) });
      expect(await provider.lookupBank('999999')).toBeNull();
      const banks = await provider.listBanks();
      expect(banks.map((b) => b.institutionCode)).toContain(institutionCode);
    });

    it("names an account's holder and their BVN by name enquiry, the same reference when asked again, and no one for a number the bank lacks", async () => {
      const { institutionCode, accountNumber, accountName, bvn } = underTest.knownAccount;
      const found = await provider.nameEnquiry({ institutionCode, accountNumber });
      expect(found).toMatchObject({ accountName, bvn, nameEnquiryId: expect.any(String) });
      expect(await provider.nameEnquiry({ institutionCode, accountNumber })).toEqual(found);
      const missing = `${accountNumber.slice(0, 9)}${(Number(accountNumber[9]) + 1) % 10}`;
      expect(await provider.nameEnquiry({ institutionCode, accountNumber: missing })).toBeNull();
    });

    it('answers the BVN registry: the holder, date of birth and registered phone of a BVN, no one for a BVN never issued', async () => {
      const record = await provider.lookupBvn(underTest.knownAccount.bvn);
      expect(record).toEqual(underTest.knownHolder);
      expect(record?.dateOfBirth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(record?.phoneNumber).toMatch(/^\+\d{8,15}$/);
      expect(await provider.lookupBvn(UNKNOWN_BVN)).toBeNull();
    });

    it('opens an alternate-service mandate with its auth parameters, the same for a retry, and verifies only the right answers', async () => {
      const { institutionCode, accountNumber, answers } = underTest.altAccount;
      const request = { reference: reference(), institutionCode, accountNumber };
      const mandate = await provider.requestAltMandate(request);
      expect(mandate).toMatchObject({
        remitaTransRef: expect.any(String),
        requestId: expect.any(String),
      });
      expect(mandate?.authParams.length).toBeGreaterThan(0);
      expect(await provider.requestAltMandate(request)).toEqual(mandate);
      const remitaTransRef = mandate?.remitaTransRef ?? '';
      const verify = (given: typeof answers) =>
        provider.verifyAltMandate({
          remitaTransRef,
          institutionCode,
          accountNumber,
          answers: given,
        });
      expect(await verify(answers)).toEqual({ verified: true });
      const wrong = answers.map((a, i) => (i === 0 ? { ...a, value: `${a.value}9` } : a));
      expect(await verify(wrong)).toEqual({ verified: false });
      expect(await verify(answers.slice(1))).toEqual({ verified: false });
      const { knownAccount } = underTest;
      expect(await provider.requestAltMandate({ ...request, ...knownAccount })).toBeNull();
    });

    it('answers pending for a paper mandate just issued', async () => {
      expect(
        await provider.paperMandateStatus({ reference: reference(), issuedAt: new Date() }),
      ).toBe('pending');
    });

    const debit = (account: { institutionCode: string; accountNumber: string }, ref: string) =>
      provider.debitAccount({
        reference: ref,
        mandateReference: 'alk_contract',
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
        amount: 1_000_000,
        narration: 'Membership',
      });

    it('debits an account once per reference, and gives a debit back', async () => {
      const ref = reference();
      const first = await debit(underTest.knownAccount, ref);
      expect(first).toMatchObject({ kind: 'succeeded', providerReference: expect.any(String) });
      // The same reference again: the same answer, no second debit.
      expect(await debit(underTest.knownAccount, ref)).toEqual(first);
      if (first.kind !== 'succeeded') return;
      const reversal = { providerReference: first.providerReference, reference: ref };
      expect(await provider.reverseDebit(reversal)).toEqual({ reversed: true });
      expect(await provider.reverseDebit(reversal)).toEqual({ reversed: true });
    });

    it('fails a debit the account cannot cover, and one of an account it does not know', async () => {
      expect(await debit(underTest.poorAccount, reference())).toMatchObject({
        kind: 'failed',
        reason: 'insufficient_funds',
      });
      expect(
        await debit({ institutionCode: '058', accountNumber: '0000000000' }, reference()),
      ).toMatchObject({ kind: 'failed', reason: 'account_not_found' });
    });

    const payOut = (
      account: { institutionCode: string; accountNumber: string },
      ref: string,
      amount = 370_000,
    ) =>
      provider.payOut({
        reference: ref,
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
        accountName: underTest.knownAccount.accountName,
        amount,
        narration: 'Payment request collections released',
      });

    it('pays out to an account once per reference, the same answer however often asked', async () => {
      const ref = reference();
      const answers = await Promise.all([1, 2, 3].map(() => payOut(underTest.knownAccount, ref)));
      expect(answers[0]).toMatchObject({
        kind: 'succeeded',
        providerReference: expect.any(String),
      });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(await payOut(underTest.knownAccount, ref)).toEqual(answers[0]);
      // Another reference is another payout.
      const other = await payOut(underTest.knownAccount, reference());
      expect(other).toMatchObject({ kind: 'succeeded' });
      if (other.kind === 'succeeded' && answers[0]?.kind === 'succeeded')
        expect(other.providerReference).not.toBe(answers[0].providerReference);
    });

    it('refuses a payout to an account it does not know', async () => {
      expect(
        await payOut({ institutionCode: '058', accountNumber: '0000000000' }, reference()),
      ).toMatchObject({ kind: 'failed', reason: 'account_not_found' });
    });

    const purchase = (
      scenario: Parameters<TPaymentProviderUnderTest['chipPurchaseFor']>[0],
      change: Partial<TChipPurchase> & { pin?: string } = {},
    ) => {
      const { pin, ...rest } = change;
      return provider.terminalChipPurchase({
        ...underTest.chipPurchaseFor(scenario, 250_000, pin),
        reference: reference(),
        ...rest,
      });
    };

    it("gives a registered reader's terminal and merchant ids, and none for a serial it does not know", async () => {
      expect(await provider.terminalFetchKeys(underTest.reader.serial)).toEqual(underTest.reader);
      expect(await provider.terminalFetchKeys('NOT-A-READER')).toBeNull();
    });

    it('approves a chip purchase with the right PIN (00), the same answer for the same reference', async () => {
      const request = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      const approved = await provider.terminalChipPurchase(request);
      expect(approved).toMatchObject({
        kind: 'approved',
        responseCode: '00',
        authCode: expect.stringMatching(/^\w{6}$/),
        providerReference: expect.any(String),
      });
      expect(await provider.terminalChipPurchase(request)).toEqual(approved);
      expect(JSON.stringify(approved)).not.toContain(request.pan);
    });

    it.each([
      ['chip_approved', '0000', '55', 'incorrect_pin'],
      ['chip_insufficient_funds', undefined, '51', 'insufficient_funds'],
      ['chip_declined', undefined, '05', 'declined'],
    ] as const)('declines %s (PIN %s) with %s, %s', async (scenario, pin, responseCode, reason) => {
      expect(await purchase(scenario, pin ? { pin } : {})).toMatchObject({
        kind: 'declined',
        responseCode,
        reason,
      });
    });

    it('declines a purchase whose chip data changed after the card signed it, whatever the PIN', async () => {
      const read = underTest.chipPurchaseFor('chip_approved', 250_000);
      expect(
        await provider.terminalChipPurchase({
          ...read,
          reference: reference(),
          iccData: underTest.tamper(read.iccData, '9F37', '00000000'),
        }),
      ).toMatchObject({ kind: 'declined', reason: 'declined' });
    });

    it('refuses a terminal id that is not the reader’s, and a PIN block it cannot read', async () => {
      expect(await purchase('chip_approved', { tid: 'NOTOURS1' })).toMatchObject({
        kind: 'declined',
        reason: 'invalid_terminal',
      });
      expect(await purchase('chip_approved', { pinBlock: '0123456789ABCDEF' })).toMatchObject({
        kind: 'declined',
        reason: 'format_error',
      });
    });

    it('reverses an approved purchase, and a repeated reversal is the same reversal', async () => {
      const approved = await purchase('chip_approved');
      if (approved.kind !== 'approved') throw new Error(`expected approval, got ${approved.kind}`);
      const reversal = {
        providerReference: approved.providerReference,
        amount: 250_000,
        reference: 'rev1',
      };
      expect(await provider.terminalReverse(reversal)).toEqual({ reversed: true });
      expect(await provider.terminalReverse(reversal)).toEqual({ reversed: true });
    });

    /** The settlement report's lines of one reference. */
    const reported = async (ref: string) =>
      (await provider.settlementReport()).filter((line) => line.reference === ref);

    it('answers a requery of a charge it took: taken, its amount and card; refunded, given back', async () => {
      const ref = reference();
      const request = {
        reference: ref,
        amount: 250_000,
        narration: 'Order 18',
        card: underTest.cardFor('pin_only').card,
      };
      const paid = await provider.chargeCard(request);
      if (paid.kind !== 'succeeded') throw new Error(`expected success, got ${paid.kind}`);
      expect(await provider.requeryCardCharge(ref)).toEqual({
        kind: 'taken',
        providerReference: paid.providerReference,
        amount: 250_000,
        givenBack: false,
        card: paid.card,
      });
      // The same reference again is the first charge answered, never a second one.
      expect(await provider.chargeCard(request)).toMatchObject({
        kind: 'succeeded',
        providerReference: paid.providerReference,
      });
      expect(await reported(ref)).toEqual([
        { channel: 'card', reference: ref, amount: 250_000, givenBack: false },
      ]);
      await provider.refundCard({
        providerReference: paid.providerReference,
        amount: 250_000,
        reference: ref,
      });
      expect(await provider.requeryCardCharge(ref)).toMatchObject({
        kind: 'taken',
        givenBack: true,
      });
      expect(await reported(ref)).toEqual([
        { channel: 'card', reference: ref, amount: 250_000, givenBack: true },
      ]);
    });

    it('answers a charge waiting for its OTP as pending, then taken; a refused one as not taken', async () => {
      const ref = reference();
      const { card, otp } = underTest.cardFor('pin_otp');
      const waiting = await provider.chargeCard({
        reference: ref,
        amount: 250_000,
        narration: 'Order 19',
        card,
      });
      if (waiting.kind !== 'otp_required') throw new Error(`expected an OTP, got ${waiting.kind}`);
      expect(await provider.requeryCardCharge(ref)).toEqual({
        kind: 'pending',
        awaiting: 'otp',
        providerReference: waiting.providerReference,
      });
      await provider.submitCardOtp({ providerReference: waiting.providerReference, otp });
      expect(await provider.requeryCardCharge(ref)).toMatchObject({ kind: 'taken' });
      const refused = reference();
      await provider.chargeCard({
        reference: refused,
        amount: 250_000,
        narration: 'Order 20',
        card: underTest.cardFor('declined').card,
      });
      expect(await provider.requeryCardCharge(refused)).toMatchObject({
        kind: 'not_taken',
        reason: 'declined',
      });
      expect(await reported(refused)).toEqual([]);
    });

    it('closes a charge reference it never saw: not taken, and a charge arriving after is refused', async () => {
      const ref = reference();
      expect(await provider.requeryCardCharge(ref)).toMatchObject({ kind: 'not_taken' });
      const late = await provider.chargeCard({
        reference: ref,
        amount: 250_000,
        narration: 'Order 21',
        card: underTest.cardFor('pin_only').card,
      });
      expect(late).toMatchObject({ kind: 'failed' });
      expect(await provider.requeryCardCharge(ref)).toMatchObject({ kind: 'not_taken' });
      expect(await reported(ref)).toEqual([]);
    });

    it('answers a requery of a debit: taken, given back once reversed; a late debit after a requery is refused', async () => {
      const ref = reference();
      const first = await debit(underTest.knownAccount, ref);
      if (first.kind !== 'succeeded') throw new Error(`expected a debit, got ${first.kind}`);
      expect(await provider.requeryDebit(ref)).toEqual({
        kind: 'taken',
        providerReference: first.providerReference,
        amount: 1_000_000,
        givenBack: false,
      });
      expect(await reported(ref)).toEqual([
        { channel: 'debit', reference: ref, amount: 1_000_000, givenBack: false },
      ]);
      await provider.reverseDebit({ providerReference: first.providerReference, reference: ref });
      expect(await provider.requeryDebit(ref)).toMatchObject({ kind: 'taken', givenBack: true });

      const never = reference();
      expect(await provider.requeryDebit(never)).toMatchObject({ kind: 'not_taken' });
      expect(await debit(underTest.knownAccount, never)).toMatchObject({ kind: 'failed' });
      expect(await reported(never)).toEqual([]);
    });

    it('answers a requery of a chip purchase: taken with its authorisation; a late purchase after a requery is refused', async () => {
      const request = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      const approved = await provider.terminalChipPurchase(request);
      if (approved.kind !== 'approved') throw new Error(`expected approval, got ${approved.kind}`);
      expect(await provider.requeryChipPurchase(request.reference)).toEqual({
        kind: 'taken',
        providerReference: approved.providerReference,
        amount: 250_000,
        givenBack: false,
        authCode: approved.authCode,
      });
      expect(await reported(request.reference)).toEqual([
        { channel: 'chip', reference: request.reference, amount: 250_000, givenBack: false },
      ]);

      const late = {
        ...underTest.chipPurchaseFor('chip_approved', 250_000),
        reference: reference(),
      };
      expect(await provider.requeryChipPurchase(late.reference)).toMatchObject({
        kind: 'not_taken',
      });
      expect(await provider.terminalChipPurchase(late)).toMatchObject({ kind: 'declined' });
      expect(await reported(late.reference)).toEqual([]);
    });

    it('answers a requery of a payout: taken; a late payout after a requery is refused', async () => {
      const ref = reference();
      const paid = await payOut(underTest.knownAccount, ref);
      if (paid.kind !== 'succeeded') throw new Error(`expected a payout, got ${paid.kind}`);
      expect(await provider.requeryPayout(ref)).toEqual({
        kind: 'taken',
        providerReference: paid.providerReference,
        amount: 370_000,
        givenBack: false,
      });
      expect(await reported(ref)).toEqual([
        { channel: 'payout', reference: ref, amount: 370_000, givenBack: false },
      ]);
      const never = reference();
      expect(await provider.requeryPayout(never)).toMatchObject({ kind: 'not_taken' });
      expect(await payOut(underTest.knownAccount, never)).toMatchObject({
        kind: 'failed',
        reason: 'expired',
      });
      expect(await reported(never)).toEqual([]);
    });
  });
}
