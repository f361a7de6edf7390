import { detectCardBrand, type TCardBrand } from '../../../domain/card-brand';
import { CURRENCY_CODE } from '../../../domain/constants';
import type {
  TCardChargeOutcome,
  TCardFailureReason,
  TCardsPort,
  TCardSummary,
  TPlainCard,
} from '../payments';
import type { TMonnifyCharge, TMonnifyInitialized, TMonnifyTransaction } from './monnify-api';
import { MonnifyNoAnswer, ProviderNoAnswer, type TMonnifyAnswer } from './monnify-client';
import {
  forgetOpenCharge,
  keepOpenCharge,
  MONNIFY_PAYER_EMAIL,
  NEVER_ARRIVED,
  nairaOf,
  openChargeOf,
  transactionByMonnifyReference,
  transactionOf,
  transactionOutcome,
  type TMonnify,
} from './monnify-shared';
import { giveBack } from './refunds';

/*
 * Card charges on Monnify's card API: a transaction is initialised with our reference
 * (init-transaction, paymentMethods CARD), then the card is charged on it (cards/charge), which
 * answers SUCCESS, FAILED, OTP_AUTHORIZATION_REQUIRED (the OTP goes to cards/otp/authorize) or
 * BANK_AUTHORIZATION_REQUIRED (the issuer's 3-D Secure page, in the same window; its end comes by
 * the SUCCESSFUL_TRANSACTION notice or a requery).
 *
 * The PIN travels in the charge itself: Monnify has no PIN step after it. A Verve card (always
 * PIN-verified) charged without its PIN is asked for it before anything is charged, and the
 * service sends the card again with it (submitCardPin's `card`); Visa and Mastercard charged
 * without one go without, and their issuer asks for an OTP or 3-D Secure where it wants, or
 * Monnify refuses the request for want of the PIN (the transaction left open): then the payer is
 * asked for it (pin_required) and the card goes again with it on the same transaction.
 */

const BRANDS: Record<string, TCardBrand> = {
  VISA: 'visa',
  MASTERCARD: 'mastercard',
  VERVE: 'verve',
};

/** What may be kept of a card: Monnify's word for its brand where it gave one, else its number's. */
export function cardSummary(
  number: string | null,
  details: TMonnifyTransaction['cardDetails'],
): TCardSummary {
  const brand =
    BRANDS[(details?.cardType ?? '').toUpperCase()] ??
    (number ? detectCardBrand(number) : null) ??
    'verve';
  return {
    brand,
    first6: details?.bin ?? number?.slice(0, 6) ?? '',
    last4: details?.last4 ?? number?.slice(-4) ?? '',
  };
}

/** Why Monnify refused a card, from its words (it gives no codes for card refusals). */
export function cardDeclineReason(message: string | null | undefined): TCardFailureReason {
  const text = (message ?? '').toLowerCase();
  if (text.includes('insufficient')) return 'insufficient_funds';
  if (/timed? ?out|inoperative/.test(text)) return 'timeout';
  if (/pin/.test(text)) return 'incorrect_pin';
  if (/otp/.test(text)) return 'incorrect_otp';
  if (/expir|invalid card|card number/.test(text)) return 'invalid_card';
  return 'declined';
}

/**
 * Whether Monnify's refusal of a charge says the card's PIN is wanted ('PIN is required for this
 * card'), not that the one sent was wrong.
 */
export const asksForPin = (message: string | null | undefined): boolean =>
  /\bpin\b/i.test(message ?? '') && /required|needed|missing|provide/i.test(message ?? '');

const OTP_PROMPT = 'Enter the OTP sent to your phone';
const THREE_DS_PROMPT = "Complete the check on your bank's page";

/**
 * Monnify's card API takes the browser's details for its fraud checks (ChargeRequest
 * deviceInformation): the charge is made by our server, so these describe it, not a browser.
 */
const DEVICE_INFORMATION = {
  httpBrowserLanguage: 'en-NG',
  httpBrowserJavaEnabled: false,
  httpBrowserJavaScriptEnabled: true,
  httpBrowserColorDepth: 24,
  httpBrowserScreenHeight: 1080,
  httpBrowserScreenWidth: 1920,
  httpBrowserTimeDifference: '-60',
  userAgentBrowserValue: 'oya-consent-server',
};

/** The init-transaction body of a card charge or a transfer in (InitializeTransactionRequest). */
export const initTransactionBody = (
  mf: TMonnify,
  request: { reference: string; amount: number; narration: string; channel: 'card' | 'transfer' },
) => ({
  amount: nairaOf(request.amount),
  customerName: 'Oya Money payer',
  customerEmail: MONNIFY_PAYER_EMAIL,
  paymentReference: request.reference,
  paymentDescription: request.narration.slice(0, 64) || 'Payment',
  currencyCode: CURRENCY_CODE,
  contractCode: mf.contractCode,
  paymentMethods: [request.channel === 'card' ? 'CARD' : 'ACCOUNT_TRANSFER'],
  // Our channel, and the amount in kobo as we asked it: the record says what arrived.
  metadata: { oya_channel: request.channel, oya_amount_kobo: String(request.amount) },
});

/**
 * The transaction of our reference, initialised once: a reference Monnify already holds (a
 * repeat, a lost answer) is its own record, never a second transaction.
 */
export async function initialized(
  mf: TMonnify,
  body: ReturnType<typeof initTransactionBody>,
): Promise<TMonnifyTransaction | TMonnifyInitialized> {
  let answer: TMonnifyAnswer<TMonnifyInitialized>;
  try {
    answer = await mf.client.write<TMonnifyInitialized>(
      '/api/v1/merchant/transactions/init-transaction',
      body,
    );
  } catch (error) {
    if (!(error instanceof ProviderNoAnswer)) throw error;
    const found = await transactionOf(mf, body.paymentReference);
    if (!found) throw error;
    return found;
  }
  if (answer.ok) return answer.body;
  const found = await transactionOf(mf, body.paymentReference);
  if (found) return found;
  throw new Error(`Monnify initialised no transaction: ${answer.message}`);
}

/** The card's token and summary, from Monnify's record once a charge succeeded. */
async function succeeded(
  mf: TMonnify,
  transactionReference: string,
  card: TCardSummary,
): Promise<TCardChargeOutcome> {
  await forgetOpenCharge(mf, transactionReference);
  const record = await transactionByMonnifyReference(mf, transactionReference);
  const details = record?.cardDetails;
  return {
    kind: 'succeeded',
    providerReference: transactionReference,
    card: details?.last4 ? cardSummary(null, details) : card,
    token: details?.cardToken && details.reusable !== false ? details.cardToken : null,
  };
}

/** A charge's answer in the port's words. */
async function chargeOutcome(
  mf: TMonnify,
  charge: TMonnifyCharge,
  card: TCardSummary,
): Promise<TCardChargeOutcome> {
  const providerReference = charge.transactionReference;
  switch (charge.status) {
    case 'SUCCESS':
      return succeeded(mf, providerReference, card);
    case 'OTP_AUTHORIZATION_REQUIRED':
      await keepOpenCharge(mf, providerReference, {
        step: 'otp',
        tokenId: charge.otpData?.id ?? null,
        card,
      });
      return {
        kind: 'otp_required',
        providerReference,
        card,
        displayMessage: charge.otpData?.message || OTP_PROMPT,
      };
    case 'BANK_AUTHORIZATION_REQUIRED': {
      const challengeUrl = charge.secure3dData?.redirectUrl;
      if (!challengeUrl)
        throw new MonnifyNoAnswer(`the charge ${providerReference}`, 'no 3-D Secure page');
      await keepOpenCharge(mf, providerReference, { step: '3ds', tokenId: null, card });
      return {
        kind: 'three_ds_required',
        providerReference,
        card,
        challengeUrl,
        displayMessage: THREE_DS_PROMPT,
      };
    }
    case 'FAILED':
      await forgetOpenCharge(mf, providerReference);
      return { kind: 'failed', providerReference, card, reason: cardDeclineReason(charge.message) };
    default:
      // A status we do not know is not guessed: the charge is asked about later.
      throw new MonnifyNoAnswer(`the charge ${providerReference}`, `status ${charge.status}`);
  }
}

/** A charge whose answer was lost, as Monnify's record of it stands (still open: unknown). */
async function recordedOutcome(
  mf: TMonnify,
  transactionReference: string,
  card: TCardSummary,
): Promise<TCardChargeOutcome> {
  const record = await transactionByMonnifyReference(mf, transactionReference);
  if (record?.paymentStatus === 'PAID') return succeeded(mf, transactionReference, card);
  if (record && record.paymentStatus !== 'PENDING') {
    return { kind: 'failed', providerReference: transactionReference, card, reason: 'declined' };
  }
  throw new MonnifyNoAnswer(`the charge ${transactionReference}`, 'no final answer yet');
}

/** cards/charge on an initialised transaction, with the card's PIN where there is one. */
async function chargeOn(
  mf: TMonnify,
  transactionReference: string,
  card: TPlainCard,
  summary: TCardSummary,
): Promise<TCardChargeOutcome> {
  const [month = '', year = ''] = card.expiry.split('/');
  let answer: TMonnifyAnswer<TMonnifyCharge>;
  try {
    answer = await mf.client.write<TMonnifyCharge>('/api/v1/merchant/cards/charge', {
      transactionReference,
      collectionChannel: 'API_NOTIFICATION',
      card: {
        number: card.number,
        expiryMonth: month,
        expiryYear: year.length === 2 ? `20${year}` : year,
        cvv: card.cvv,
        ...(card.pin ? { pin: card.pin } : {}),
      },
      deviceInformation: DEVICE_INFORMATION,
    });
  } catch (error) {
    if (!(error instanceof ProviderNoAnswer)) throw error;
    return recordedOutcome(mf, transactionReference, summary);
  }
  if (answer.ok) return chargeOutcome(mf, answer.body, summary);
  // A card charged without its PIN whose issuer wants one: Monnify refuses the request and the
  // transaction stays open. The payer is asked for the PIN, and the card goes again on the same
  // transaction with it (submitCardPin), as after Paystack's send_pin.
  if (card.pin === null && asksForPin(answer.message)) {
    await keepOpenCharge(mf, transactionReference, { step: 'pin', tokenId: null, card: summary });
    return { kind: 'pin_required', providerReference: transactionReference, card: summary };
  }
  await forgetOpenCharge(mf, transactionReference);
  return {
    kind: 'failed',
    providerReference: transactionReference,
    card: summary,
    reason: cardDeclineReason(answer.message),
  };
}

/** A requery's 'not_taken' reason for a refused card, by the step it last waited at. */
const refusedReason = (step: string | undefined) =>
  step === '3ds' ? 'three_ds_declined' : 'declined';

export function monnifyCards(mf: TMonnify): TCardsPort {
  return {
    provider: 'monnify',
    async chargeCard({ reference, amount, narration, card }) {
      const summary = cardSummary(card.number, null);
      if (await mf.references.isClosed(reference)) {
        return { kind: 'failed', providerReference: null, card: summary, reason: 'expired' };
      }
      const made = await initialized(
        mf,
        initTransactionBody(mf, { reference, amount, narration, channel: 'card' }),
      );
      const { transactionReference } = made;
      if ('paymentStatus' in made && made.paymentStatus !== 'PENDING') {
        // Charged before with this reference: its end, never a second charge.
        if (made.paymentStatus === 'PAID') return succeeded(mf, transactionReference, summary);
        return {
          kind: 'failed',
          providerReference: transactionReference,
          card: summary,
          reason: 'declined',
        };
      }
      if (card.pin === null && summary.brand === 'verve') {
        await keepOpenCharge(mf, transactionReference, {
          step: 'pin',
          tokenId: null,
          card: summary,
        });
        return { kind: 'pin_required', providerReference: transactionReference, card: summary };
      }
      return chargeOn(mf, transactionReference, card, summary);
    },

    async submitCardPin({ providerReference, pin, card }) {
      const open = await openChargeOf(mf, providerReference);
      const summary = open?.card ?? cardSummary(card?.number ?? null, null);
      if (!card) {
        throw new Error('Monnify takes the PIN with the card: submitCardPin needs the card again');
      }
      await forgetOpenCharge(mf, providerReference);
      return chargeOn(mf, providerReference, { ...card, pin }, summary);
    },

    async submitCardOtp({ providerReference, otp }) {
      const open = await openChargeOf(mf, providerReference);
      if (!open || open.step !== 'otp' || !open.tokenId) {
        // Not waiting for an OTP (it ended, or was never charged so): as it stands.
        return recordedOutcome(mf, providerReference, open?.card ?? cardSummary(null, null));
      }
      let answer: TMonnifyAnswer<{ paymentStatus?: string }>;
      try {
        answer = await mf.client.write('/api/v1/merchant/cards/otp/authorize', {
          transactionReference: providerReference,
          collectionChannel: 'API_NOTIFICATION',
          tokenId: open.tokenId,
          token: otp,
        });
      } catch (error) {
        if (!(error instanceof ProviderNoAnswer)) throw error;
        return recordedOutcome(mf, providerReference, open.card);
      }
      await forgetOpenCharge(mf, providerReference);
      if (answer.ok && answer.body.paymentStatus === 'PAID') {
        return succeeded(mf, providerReference, open.card);
      }
      const reason = answer.ok ? 'declined' : cardDeclineReason(answer.message);
      return {
        kind: 'failed',
        providerReference,
        card: open.card,
        // Refused at the OTP step in words that name nothing else: the OTP was wrong.
        reason: reason === 'declined' && !answer.ok ? 'incorrect_otp' : reason,
      };
    },

    async requeryCardCharge(reference) {
      const record = await transactionOf(mf, reference);
      if (!record) return NEVER_ARRIVED;
      const step = (await openChargeOf(mf, record.transactionReference))?.step;
      const outcome = transactionOutcome(record, step ?? null);
      if (outcome.kind === 'not_taken' && outcome.reason !== 'expired') {
        return { ...outcome, reason: refusedReason(step) };
      }
      if (outcome.kind !== 'taken') return outcome;
      return { ...outcome, card: cardSummary(null, record.cardDetails) };
    },

    refundCard: async ({ providerReference, amount, reference }) => {
      await giveBack(mf, {
        transactionReference: providerReference,
        amount,
        reference,
        reason: 'Refunded',
      });
      return { refunded: true };
    },

    // Monnify names a card's brand and its first 6 and last 4 digits, never the account it draws
    // on: it proves no card is on an account, so a card links none through Monnify.
    isCardOnAccount: async () => false,
  };
}
