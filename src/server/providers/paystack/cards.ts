import { detectCardBrand, type TCardBrand } from '../../../domain/card-brand';
import { paystackNoAnswer, paystackPath, type TPaystackAnswer } from './paystack-calls';
import { ProviderNoAnswer } from '../provider-call';
import type { TCardChargeOutcome, TCardsPort, TCardSummary } from '../payments';
import type { TPaystackAuthorization, TPaystackCharge } from './paystack-api';
import { cardDeclineReason, isDuplicateReference } from './paystack-declines';
import { toPaystackReference } from './paystack-references';
import {
  chargeByReference,
  forgetOpenCharge,
  keepOpenCharge,
  openChargeOf,
  PAYSTACK_PAYER_EMAIL,
  requeryTransaction,
  takenInNaira,
  type TPaystack,
} from './paystack-shared';
import { giveBack } from './refunds';

const PAYSTACK_BRANDS: Record<string, TCardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  verve: 'verve',
};

/**
 * The card's brand: Paystack's word for it where it gave one, else the spec's rules on the
 * number; a local card neither names (Verve ranges the spec does not list) is Verve.
 */
export function cardSummary(
  number: string | null,
  authorization: TPaystackAuthorization | null | undefined,
): TCardSummary {
  const brand =
    PAYSTACK_BRANDS[(authorization?.brand ?? '').toLowerCase()] ??
    (number ? detectCardBrand(number) : null) ??
    'verve';
  return {
    brand,
    first6: authorization?.bin ?? number?.slice(0, 6) ?? '',
    last4: authorization?.last4 ?? number?.slice(-4) ?? '',
  };
}

/** The authorization that charges the card again, where Paystack says it can (reusable). */
export const reusableToken = (authorization: TPaystackAuthorization | null | undefined) =>
  authorization?.reusable ? (authorization.authorization_code ?? null) : null;

/** The words the payer reads at an OTP step when Paystack gives none. */
const OTP_PROMPT = 'Enter the OTP sent to your phone';
const THREE_DS_PROMPT = "Complete the check on your bank's page";

/** A charge's answer in the port's words, following a PIN step and 'pending' by reference. */
async function chargeOutcome(
  ps: TPaystack,
  charge: TPaystackCharge,
  card: TCardSummary,
  pin: string | null,
): Promise<TCardChargeOutcome> {
  const providerReference = charge.reference;
  const summary = charge.authorization?.last4 ? cardSummary(null, charge.authorization) : card;
  switch (charge.status) {
    case 'success':
      await forgetOpenCharge(ps, providerReference);
      if (!takenInNaira(charge)) {
        return { kind: 'failed', providerReference, card: summary, reason: 'declined' };
      }
      return {
        kind: 'succeeded',
        providerReference,
        card: summary,
        token: reusableToken(charge.authorization),
      };
    case 'failed':
      await forgetOpenCharge(ps, providerReference);
      return {
        kind: 'failed',
        providerReference,
        card: summary,
        reason: cardDeclineReason(charge.gateway_response ?? charge.message),
      };
    case 'send_pin': {
      // Asked of the payer only now: a card Paystack checks otherwise (3-D Secure, an OTP
      // alone) is never asked for one. A PIN that came with the card goes at once; it goes
      // once, so a charge asking again after it was wrong.
      if (pin !== null) return submitPin(ps, providerReference, pin, summary);
      await keepOpenCharge(ps, providerReference, 'pin', summary);
      return { kind: 'pin_required', providerReference, card: summary };
    }
    case 'send_otp':
      await keepOpenCharge(ps, providerReference, 'otp', summary);
      return {
        kind: 'otp_required',
        providerReference,
        card: summary,
        displayMessage: charge.display_text || OTP_PROMPT,
      };
    case 'open_url':
      if (!charge.url) return stillUnknown(providerReference);
      await keepOpenCharge(ps, providerReference, '3ds', summary);
      return {
        kind: 'three_ds_required',
        providerReference,
        card: summary,
        challengeUrl: charge.url,
        displayMessage: charge.display_text || THREE_DS_PROMPT,
      };
    case 'send_phone':
    case 'send_birthday':
    case 'send_address':
      // The spec's OTP screen takes six digits: a phone number, a birthday or an address cannot
      // be typed there, so such a card is refused (docs/providers/paystack.md, "Each flow of the spec, at Paystack").
      await forgetOpenCharge(ps, providerReference);
      return { kind: 'failed', providerReference, card: summary, reason: 'declined' };
    case 'pending': {
      for (const delay of ps.pendingChecks) {
        await ps.pause(delay);
        const checked = await ps.client.read<TPaystackCharge>(
          paystackPath`/charge/${providerReference}`,
        );
        if (checked.ok && checked.data.status !== 'pending') {
          return chargeOutcome(ps, checked.data, summary, pin);
        }
      }
      return stillUnknown(providerReference);
    }
    default:
      // A status we do not know is not guessed: the charge is asked about later.
      return stillUnknown(providerReference);
  }
}

/** The PIN to a charge that asked for it, once: a charge that asks again, it was wrong. */
async function submitPin(
  ps: TPaystack,
  providerReference: string,
  pin: string,
  card: TCardSummary,
): Promise<TCardChargeOutcome> {
  await forgetOpenCharge(ps, providerReference);
  const next = await continueCharge(ps, '/charge/submit_pin', {
    pin,
    reference: providerReference,
  });
  if (next.status === 'send_pin') {
    return { kind: 'failed', providerReference, card, reason: 'incorrect_pin' };
  }
  return chargeOutcome(ps, next, card, null);
}

/**
 * The step a charge waits at for its payer, by Paystack's reference: as the process that charged
 * it kept it (provider-references.ts), else asked of Paystack (a charge kept nowhere). A charge
 * no longer waiting at `status` (decided meanwhile: paid, refused) is answered as it was
 * decided, never as a wrong PIN or OTP.
 */
async function openCharge(
  ps: TPaystack,
  providerReference: string,
  status: 'send_pin' | 'send_otp',
): Promise<{ step: string; card: TCardSummary } | TCardChargeOutcome> {
  const open = await openChargeOf(ps, providerReference);
  if (open) return open;
  const charge = await chargeByReference(ps, providerReference);
  const card = cardSummary(null, charge.authorization);
  if (charge.status !== status) return chargeOutcome(ps, charge, card, null);
  return { step: status === 'send_pin' ? 'pin' : 'otp', card };
}

/** A charge Paystack has not decided: left to the reconciler's requery. */
function stillUnknown(providerReference: string): never {
  throw paystackNoAnswer(`the charge ${providerReference}`, 'no final answer yet');
}

/**
 * A submit_* call: its answer, or the charge's state asked by reference when none came (still
 * unknown after that: thrown, never read as a refusal).
 */
async function continueCharge(
  ps: TPaystack,
  path: string,
  body: { reference: string } & Record<string, string>,
): Promise<TPaystackCharge> {
  let answer: TPaystackAnswer<TPaystackCharge>;
  try {
    answer = await ps.client.write<TPaystackCharge>(path, body);
  } catch (error) {
    if (!(error instanceof ProviderNoAnswer)) throw error;
    return chargeByReference(ps, body.reference);
  }
  if (answer.ok) return answer.data;
  // Refused without a charge's state: the step's words are the reason.
  return {
    status: 'failed',
    reference: body.reference,
    gateway_response: answer.message,
  };
}

/** Card charges by the Charge API: PIN, OTP, 3-D Secure, saved cards by authorisation code. */
export function paystackCards(ps: TPaystack): TCardsPort {
  return {
    provider: 'paystack',
    async chargeCard({ reference, amount, narration, card }) {
      const summary = cardSummary(card.number, null);
      if (await ps.references.isClosed(reference)) {
        return { kind: 'failed', providerReference: null, card: summary, reason: 'expired' };
      }
      const providerReference = toPaystackReference(reference);
      const [month = '', year = ''] = card.expiry.split('/');
      let answer: TPaystackAnswer<TPaystackCharge>;
      try {
        answer = await ps.client.write<TPaystackCharge>('/charge', {
          email: PAYSTACK_PAYER_EMAIL,
          amount,
          reference: providerReference,
          card: {
            number: card.number,
            cvv: card.cvv,
            expiry_month: month,
            expiry_year: year.length === 2 ? `20${year}` : year,
          },
          metadata: { oya_channel: 'card', narration },
        });
      } catch (error) {
        if (!(error instanceof ProviderNoAnswer)) throw error;
        // Asked about by reference before anything else: never charged again under another.
        return chargeOutcome(ps, await chargeByReference(ps, providerReference), summary, card.pin);
      }
      if (answer.ok) return chargeOutcome(ps, answer.data, summary, card.pin);
      if (isDuplicateReference(answer)) {
        return chargeOutcome(ps, await chargeByReference(ps, providerReference), summary, card.pin);
      }
      // Refused before a charge began (the card's details): no reference of Paystack's.
      return {
        kind: 'failed',
        providerReference: null,
        card: summary,
        reason: cardDeclineReason(answer.message),
      };
    },

    async submitCardPin({ providerReference, pin }) {
      const open = await openCharge(ps, providerReference, 'send_pin');
      if ('kind' in open) return open;
      if (open.step !== 'pin') {
        return { kind: 'failed', providerReference, card: open.card, reason: 'incorrect_pin' };
      }
      return submitPin(ps, providerReference, pin, open.card);
    },

    async submitCardOtp({ providerReference, otp }) {
      const open = await openCharge(ps, providerReference, 'send_otp');
      if ('kind' in open) return open;
      if (open.step !== 'otp') {
        return { kind: 'failed', providerReference, card: open.card, reason: 'incorrect_otp' };
      }
      const next = await continueCharge(ps, '/charge/submit_otp', {
        otp,
        reference: providerReference,
      });
      if (
        next.status === 'failed' &&
        cardDeclineReason(next.gateway_response ?? next.message) === 'declined'
      ) {
        // Refused at the OTP step in words that name nothing else: the OTP was wrong.
        await forgetOpenCharge(ps, providerReference);
        return { kind: 'failed', providerReference, card: open.card, reason: 'incorrect_otp' };
      }
      return chargeOutcome(ps, next, open.card, null);
    },

    async requeryCardCharge(reference) {
      const answer = await requeryTransaction(ps, reference);
      if (answer.kind !== 'taken') return answer;
      const { authorization, ...taken } = answer;
      return { ...taken, card: cardSummary(null, authorization) };
    },

    refundCard: async ({ providerReference, amount, reference }) => {
      await giveBack(ps, { transaction: providerReference, amount, reference, reason: null });
      return { refunded: true };
    },

    // Paystack names a card's issuer and its first 6 and last 4 digits, never the account it
    // draws on: it proves no card is on an account, so a card links none through Paystack.
    isCardOnAccount: async () => false,
  };
}
