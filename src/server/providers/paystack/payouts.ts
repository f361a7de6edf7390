import { CURRENCY_CODE } from '../../../domain/constants';
import { paystackNoAnswer, paystackPath, type TPaystackAnswer } from './paystack-calls';
import { ProviderNoAnswer } from '../provider-call';
import type { TPayoutOutcome, TPayoutsPort } from '../payments';
import type { TPaystackRecipient, TPaystackTransfer } from './paystack-api';
import { isDuplicateReference } from './paystack-declines';
import { toPaystackReference } from './paystack-references';
import { NEVER_ARRIVED, recordOf, type TPaystack } from './paystack-shared';

/** A transfer as Paystack holds it: a payout's end, or 'pending'. */
function payoutOutcome(transfer: TPaystackTransfer): TPayoutOutcome | 'pending' {
  const providerReference = transfer.transfer_code ?? transfer.reference;
  switch (transfer.status) {
    case 'success':
      return { kind: 'succeeded', providerReference };
    case 'failed':
    case 'rejected':
    case 'abandoned':
    case 'blocked':
    case 'reversed':
      return { kind: 'failed', providerReference, reason: 'account_not_found' };
    case 'otp':
      // A configuration fault, not the payee's: transfers wait for an OTP nobody will enter.
      throw new Error(
        'Paystack holds transfers for an OTP: turn off the transfer OTP in its dashboard (docs/providers/paystack.md)',
      );
    default:
      return 'pending';
  }
}

/** A payout's state by reference, followed while pending; left to the reconciler after. */
async function followPayout(ps: TPaystack, providerReference: string): Promise<TPayoutOutcome> {
  for (const delay of [0, ...ps.pendingChecks]) {
    await ps.pause(delay);
    const answer = await ps.client.read<TPaystackTransfer>(
      paystackPath`/transfer/verify/${providerReference}`,
    );
    if (answer.ok) {
      const outcome = payoutOutcome(answer.data);
      if (outcome !== 'pending') return outcome;
    }
  }
  throw paystackNoAnswer(`the transfer ${providerReference}`, 'no final answer yet');
}

/** Payouts by Transfers, to a recipient Paystack keeps per account. */
export function paystackPayouts(ps: TPaystack): TPayoutsPort {
  return {
    provider: 'paystack',
    async payOut({ reference, institutionCode, accountNumber, accountName, amount, narration }) {
      if (await ps.references.isClosed(reference)) {
        return { kind: 'failed', providerReference: null, reason: 'expired' };
      }
      const providerReference = toPaystackReference(reference);
      // Paystack answers the recipient it has for an account number it knows.
      const recipient = await ps.client.write<TPaystackRecipient>('/transferrecipient', {
        type: 'nuban',
        name: accountName,
        account_number: accountNumber,
        bank_code: institutionCode,
        currency: CURRENCY_CODE,
      });
      if (!recipient.ok)
        return { kind: 'failed', providerReference: null, reason: 'account_not_found' };
      let answer: TPaystackAnswer<TPaystackTransfer>;
      try {
        answer = await ps.client.write<TPaystackTransfer>('/transfer', {
          source: 'balance',
          amount,
          recipient: recipient.data.recipient_code,
          reference: providerReference,
          reason: narration,
          currency: CURRENCY_CODE,
        });
      } catch (error) {
        if (!(error instanceof ProviderNoAnswer)) throw error;
        return followPayout(ps, providerReference);
      }
      if (!answer.ok) {
        if (isDuplicateReference(answer)) return followPayout(ps, providerReference);
        return { kind: 'failed', providerReference: null, reason: 'account_not_found' };
      }
      const outcome = payoutOutcome(answer.data);
      return outcome === 'pending' ? followPayout(ps, providerReference) : outcome;
    },

    async requeryPayout(reference) {
      const transfer = await recordOf<TPaystackTransfer>(ps, '/transfer/verify', reference);
      if (!transfer) return NEVER_ARRIVED;
      const code = transfer.transfer_code ?? transfer.reference;
      switch (transfer.status) {
        case 'success':
        case 'reversed':
          return {
            kind: 'taken',
            providerReference: code,
            amount: transfer.amount,
            givenBack: transfer.status === 'reversed',
          };
        case 'failed':
        case 'rejected':
        case 'abandoned':
        case 'blocked':
          return { kind: 'not_taken', providerReference: code, reason: transfer.status };
        default:
          return { kind: 'pending', awaiting: null, providerReference: code };
      }
    },
  };
}
