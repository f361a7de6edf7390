// The cards capability of the PaymentProvider port (TCardsPort): every adapter that charges cards
// passes this suite (payments.contract.ts runs it on the sandbox; paystack.contract.test.ts on
// Paystack's simulator).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TCardChargeOutcome, TCardsPort, TPlainCard, TSettlementPort } from '../payments';
import { contractReference as reference, expectReported } from './contract-references';

/** The paths a test card takes, each one card of the provider's. */
export type TCardPath =
  /** Succeeds with no step after the charge (its PIN, where it asks one, is right). */
  | 'pin_only'
  /** Asks for its PIN (refused when wrong), then an OTP. */
  | 'pin_otp'
  | 'three_ds'
  | 'declined'
  | 'insufficient_funds'
  /** The issuer does not answer: the charge fails with reason 'timeout'. */
  | 'timeout';

export type TCardsUnderTest = {
  provider: TCardsPort;
  /** The provider's settlement report: what it took, and what it gave back. */
  settlement: TSettlementPort;
  /** A test card of the provider's that takes this path, with its PIN and OTP. */
  cardFor(path: TCardPath): { card: TPlainCard; otp: string };
  /** An account none of the test cards is issued on. */
  notTheCardsAccount: { institutionCode: string; accountNumber: string };
  /** Answers a 3-D Secure challenge as the payer would on the issuer's page; the charge's end. */
  answerThreeDs(
    outcome: Extract<TCardChargeOutcome, { kind: 'three_ds_required' }>,
    approved: boolean,
  ): Promise<TCardChargeOutcome>;
};

export function cardsContract(adapter: string, make: () => Promise<TCardsUnderTest>) {
  describe(`PaymentProvider port contract, cards: ${adapter}`, () => {
    let underTest: TCardsUnderTest;
    let provider: TCardsPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });
    const charge = (path: TCardPath, change: Partial<TPlainCard> = {}) => {
      const { card } = underTest.cardFor(path);
      return provider.chargeCard({
        reference: reference(),
        amount: 250_000,
        narration: 'Order 17',
        card: { ...card, ...change },
      });
    };

    it('charges a card that asks no step, and names it by brand, first 6 and last 4', async () => {
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

    it('never says a card draws on an account it is not issued on', async () => {
      const { card } = underTest.cardFor('pin_only');
      const other = underTest.notTheCardsAccount;
      expect(await provider.isCardOnAccount({ card: { number: card.number }, ...other })).toBe(
        false,
      );
      const paid = await charge('pin_only');
      if (paid.kind !== 'succeeded' || !paid.token) throw new Error('no token');
      expect(await provider.isCardOnAccount({ card: { token: paid.token }, ...other })).toBe(false);
      expect(
        await provider.isCardOnAccount({ card: { number: '4111111111111111' }, ...other }),
      ).toBe(false);
    });

    it('fails a charge with the wrong PIN', async () => {
      const { pin } = underTest.cardFor('pin_otp').card;
      expect(await charge('pin_otp', { pin: pin === '0000' ? '1111' : '0000' })).toMatchObject({
        kind: 'failed',
        reason: 'incorrect_pin',
      });
    });

    it('asks for the PIN of a card charged without one, and goes on once it is given', async () => {
      const { card, otp } = underTest.cardFor('pin_otp');
      const asked = await charge('pin_otp', { pin: null });
      expect(asked).toMatchObject({
        kind: 'pin_required',
        card: { first6: card.number.slice(0, 6), last4: card.number.slice(-4) },
      });
      if (asked.kind !== 'pin_required') return;
      // The card comes again with its PIN, as the payer's PIN call sends it.
      const next = await provider.submitCardPin({
        providerReference: asked.providerReference,
        pin: card.pin ?? '',
        card,
      });
      expect(next.kind).toBe('otp_required');
      if (next.kind !== 'otp_required') return;
      const done = await provider.submitCardOtp({ providerReference: next.providerReference, otp });
      expect(done).toMatchObject({ kind: 'succeeded' });
    });

    it('fails a charge whose PIN, asked after the card, is wrong', async () => {
      const { pin } = underTest.cardFor('pin_otp').card;
      const asked = await charge('pin_otp', { pin: null });
      if (asked.kind !== 'pin_required') throw new Error(`expected a PIN, got ${asked.kind}`);
      const wrong = pin === '0000' ? '1111' : '0000';
      expect(
        await provider.submitCardPin({
          providerReference: asked.providerReference,
          pin: wrong,
          card: { ...underTest.cardFor('pin_otp').card, pin: wrong },
        }),
      ).toMatchObject({ kind: 'failed', reason: 'incorrect_pin' });
    });

    it('never asks a 3-D Secure card for a PIN: charged without one, it raises its challenge', async () => {
      expect(await charge('three_ds', { pin: null })).toMatchObject({ kind: 'three_ds_required' });
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
    ] as const)('fails a %s card with reason %s', async (path, reason) => {
      expect(await charge(path)).toMatchObject({ kind: 'failed', reason });
    });

    it('fails a card past its expiry', async () => {
      expect(await charge('pin_only', { expiry: '01/20' })).toMatchObject({ kind: 'failed' });
    });

    it('refunds a succeeded charge, and a repeated refund is the same refund: given back once', async () => {
      const ref = reference();
      const paid = await provider.chargeCard({
        reference: ref,
        amount: 250_000,
        narration: 'Order 17',
        card: underTest.cardFor('pin_only').card,
      });
      if (paid.kind !== 'succeeded') throw new Error(`expected success, got ${paid.kind}`);
      const refund = {
        providerReference: paid.providerReference,
        amount: 250_000,
        reference: reference(),
      };
      expect(await provider.refundCard(refund)).toEqual({ refunded: true });
      expect(await provider.refundCard(refund)).toEqual({ refunded: true });
      // The provider's record: the one charge, given back whole; the giving back is no line of
      // its own.
      await expect
        .poll(() => provider.requeryCardCharge(ref))
        .toMatchObject({ kind: 'taken', amount: 250_000, givenBack: true });
      await expectReported(underTest.settlement, ref, [
        { channel: 'card', reference: ref, amount: 250_000, givenBack: true },
      ]);
      await expectReported(underTest.settlement, refund.reference, []);
    });

    it('gives back no card number in anything it answers', async () => {
      const paths = ['pin_only', 'pin_otp', 'three_ds', 'declined'] as const;
      const numbers = paths.map((path) => underTest.cardFor(path).card.number);
      const text = JSON.stringify([
        await charge('pin_only'),
        await charge('pin_otp'),
        await charge('three_ds'),
        await charge('declined'),
      ]);
      for (const number of numbers) expect(text).not.toContain(number);
    });

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
      await expectReported(underTest.settlement, ref, [
        { channel: 'card', reference: ref, amount: 250_000, givenBack: false },
      ]);
      await provider.refundCard({
        providerReference: paid.providerReference,
        amount: 250_000,
        reference: ref,
      });
      // A refund may take its time at the provider: the requery says so once it is done.
      await expect
        .poll(() => provider.requeryCardCharge(ref))
        .toMatchObject({ kind: 'taken', givenBack: true });
      await expectReported(underTest.settlement, ref, [
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
      await expectReported(underTest.settlement, refused, []);
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
      await expectReported(underTest.settlement, ref, []);
    });
  });
}
