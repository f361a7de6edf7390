import { CURRENCY_CODE } from '../../../domain/constants';
import type { TPayoutOutcome, TPayoutsPort, TRequeryOutcome } from '../payments';
import type { TMonnifyDisbursement } from './monnify-api';
import { MonnifyNoAnswer, ProviderNoAnswer, type TMonnifyAnswer } from './monnify-client';
import { isNotFound, koboOf, NEVER_ARRIVED, nairaOf, type TMonnify } from './monnify-shared';

/*
 * Payouts by Monnify's single transfers (disbursements/single, from the wallet named by
 * walletAccountNumber), read back by our reference (disbursements/single/summary). Monnify holds
 * a transfer for the merchant's OTP unless the integration turned that off: such a transfer
 * (PENDING_AUTHORIZATION) is an operator's step, authorisePayout below with the code Monnify sent
 * them (docs/providers/monnify.md "Payouts"); until then it is pending, asked about by reference
 * and never sent again.
 */

/** Monnify's record of our transfer; null when it holds none. */
async function transferOf(mf: TMonnify, reference: string): Promise<TMonnifyDisbursement | null> {
  const answer = await mf.client.read<TMonnifyDisbursement>(
    '/api/v2/disbursements/single/summary',
    {
      reference,
    },
  );
  if (answer.ok) return answer.body;
  if (isNotFound(answer)) return null;
  throw new MonnifyNoAnswer(`the transfer ${reference}`, answer.message);
}

/** A transfer in the port's words: its end, or thrown while Monnify has not decided. */
function payoutOutcome(transfer: TMonnifyDisbursement): TPayoutOutcome {
  const providerReference = transfer.transactionReference ?? transfer.reference;
  if (transfer.status === 'SUCCESS') return { kind: 'succeeded', providerReference };
  if (transfer.status === 'FAILED' || transfer.status === 'REVERSED') {
    return { kind: 'failed', providerReference, reason: 'account_not_found' };
  }
  const waiting =
    transfer.status === 'PENDING_AUTHORIZATION'
      ? "waits for the merchant's OTP (an operator's step: docs/providers/monnify.md)"
      : `status ${transfer.status}`;
  throw new MonnifyNoAnswer(`the transfer ${transfer.reference}`, waiting);
}

/** What a requery says of a transfer. */
export function payoutRequery(transfer: TMonnifyDisbursement): TRequeryOutcome {
  const providerReference = transfer.transactionReference ?? transfer.reference;
  switch (transfer.status) {
    case 'SUCCESS':
    case 'REVERSED':
      return {
        kind: 'taken',
        providerReference,
        amount: koboOf(transfer.amount),
        givenBack: transfer.status === 'REVERSED',
      };
    case 'FAILED':
      return {
        kind: 'not_taken',
        providerReference,
        reason: transfer.transactionDescription ?? 'failed',
      };
    default:
      return { kind: 'pending', awaiting: null, providerReference };
  }
}

export function monnifyPayouts(mf: TMonnify, walletAccountNumber: string): TPayoutsPort {
  return {
    provider: 'monnify',
    async payOut({ reference, institutionCode, accountNumber, accountName, amount, narration }) {
      if (await mf.references.isClosed(reference))
        return { kind: 'failed', providerReference: null, reason: 'expired' };
      const earlier = await transferOf(mf, reference);
      if (earlier) return payoutOutcome(earlier);
      let answer: TMonnifyAnswer<TMonnifyDisbursement>;
      try {
        answer = await mf.client.write<TMonnifyDisbursement>('/api/v2/disbursements/single', {
          amount: nairaOf(amount),
          reference,
          narration: narration.slice(0, 100),
          destinationBankCode: institutionCode,
          destinationAccountNumber: accountNumber,
          destinationAccountName: accountName,
          currency: CURRENCY_CODE,
          sourceAccountNumber: walletAccountNumber,
        });
      } catch (error) {
        if (!(error instanceof ProviderNoAnswer)) throw error;
        const asked = await transferOf(mf, reference);
        if (!asked) throw error;
        return payoutOutcome(asked);
      }
      if (answer.ok) {
        // The first answer may be before the bank's: the record says where it stands now.
        return payoutOutcome((await transferOf(mf, reference)) ?? answer.body);
      }
      const held = await transferOf(mf, reference);
      if (held) return payoutOutcome(held);
      return { kind: 'failed', providerReference: null, reason: 'account_not_found' };
    },

    async requeryPayout(reference) {
      const transfer = await transferOf(mf, reference);
      if (transfer) return payoutRequery(transfer);
      await mf.references.close(reference);
      return NEVER_ARRIVED;
    },
  };
}

/** Monnify refused a held transfer's OTP (wrong, expired, or the transfer waits for none). */
export class PayoutOtpRefused extends Error {}

/**
 * The operator's step for a transfer Monnify holds for the merchant's OTP: the code it sent them
 * (disbursements/single/validate-otp). Answers where the transfer stands after it; a code Monnify
 * refuses is thrown as PayoutOtpRefused.
 */
export async function authorisePayout(
  mf: TMonnify,
  request: { reference: string; otp: string },
): Promise<TRequeryOutcome> {
  const answer = await mf.client.write<TMonnifyDisbursement>(
    '/api/v2/disbursements/single/validate-otp',
    { reference: request.reference, authorizationCode: request.otp },
  );
  if (!answer.ok)
    throw new PayoutOtpRefused(`Monnify refused the transfer's OTP: ${answer.message}`);
  const transfer = await transferOf(mf, request.reference);
  return payoutRequery(transfer ?? answer.body);
}
