import type { TAccountDebitOutcome, TDebitsPort, TRequeryOutcome } from '../payments';
import { paystackNoAnswer, paystackPath, type TPaystackAnswer } from './paystack-calls';
import { ProviderNoAnswer } from '../provider-call';
import type {
  TPaystackMandate,
  TPaystackMandateOpened,
  TPaystackTransaction,
} from './paystack-api';
import { debitDeclineReason, isDuplicateReference } from './paystack-declines';
import { toPaystackReference } from './paystack-references';
import {
  paystackPayerEmail,
  requeryTransaction,
  takenInNaira,
  verified,
  type TPaystack,
} from './paystack-shared';
import { giveBack } from './refunds';

// Debits -------------------------------------------------------------------------------------

/** A debit's end as its transaction says, asked about again while it is pending. */
async function debitOutcome(
  ps: TPaystack,
  transaction: TPaystackTransaction,
): Promise<TAccountDebitOutcome> {
  if (transaction.status === 'success') {
    return takenInNaira(transaction)
      ? { kind: 'succeeded', providerReference: transaction.reference }
      : { kind: 'failed', providerReference: transaction.reference, reason: 'account_not_found' };
  }
  if (transaction.status === 'failed') {
    return {
      kind: 'failed',
      providerReference: transaction.reference,
      reason: debitDeclineReason(transaction.gateway_response),
    };
  }
  for (const delay of ps.pendingChecks) {
    await ps.pause(delay);
    const answer = await ps.client.read<TPaystackTransaction>(
      paystackPath`/transaction/verify/${transaction.reference}`,
    );
    if (answer.ok && (answer.data.status === 'success' || answer.data.status === 'failed')) {
      return debitOutcome(ps, answer.data);
    }
  }
  throw paystackNoAnswer(`the debit ${transaction.reference}`, 'no final answer yet');
}

/** What became of a debit, without the authorisation its transaction carries. */
async function requeryPaystackDebit(ps: TPaystack, reference: string): Promise<TRequeryOutcome> {
  const answer = await requeryTransaction(ps, reference);
  if (answer.kind !== 'taken') return answer;
  const { authorization: _authorization, ...taken } = answer;
  return taken;
}

/** Direct debits on the authorisation of a mandate the payer approved at their bank's page. */
export function paystackDebits(ps: TPaystack): TDebitsPort {
  return {
    provider: 'paystack',
    // Direct debit: the payer approves the mandate at their bank's page; Paystack tells us when
    // the bank activated it (direct_debit.authorization.active), or is asked (Verify Authorization).
    debitMandates: {
      kind: 'bank_page',
      async open({ payerId, institutionCode, accountNumber, returnUrl }) {
        const answer = await ps.client.write<TPaystackMandateOpened>(
          '/customer/authorization/initialize',
          {
            email: paystackPayerEmail(payerId),
            channel: 'direct_debit',
            callback_url: returnUrl,
            account: { number: accountNumber, bank_code: institutionCode },
          },
        );
        if (!answer.ok) throw paystackNoAnswer('Initialize Authorization', answer.message);
        return { providerReference: answer.data.reference, formUrl: answer.data.redirect_url };
      },
      async status(providerReference) {
        const answer = await ps.client.read<TPaystackMandate>(
          paystackPath`/customer/authorization/verify/${providerReference}`,
        );
        // Paystack answers 404 until the payer approved and the bank confirmed.
        if (!answer.ok || !answer.data.active) return { kind: 'pending' };
        return { kind: 'active', authorization: answer.data.authorization_code };
      },
    },

    async debitAccount({ reference, mandateReference, payerId, amount, narration }) {
      if (await ps.references.isClosed(reference)) {
        return { kind: 'failed', providerReference: null, reason: 'expired' };
      }
      const providerReference = toPaystackReference(reference);
      let answer: TPaystackAnswer<TPaystackTransaction>;
      try {
        answer = await ps.client.write<TPaystackTransaction>('/transaction/charge_authorization', {
          // The customer the payer's mandate was given as.
          email: paystackPayerEmail(payerId),
          amount,
          // The link's mandate at Paystack is the authorisation its payer gave.
          authorization_code: mandateReference,
          reference: providerReference,
          metadata: JSON.stringify({ oya_channel: 'debit', narration }),
        });
      } catch (error) {
        if (!(error instanceof ProviderNoAnswer)) throw error;
        return debitOutcome(ps, await verified(ps, providerReference));
      }
      if (answer.ok) return debitOutcome(ps, answer.data);
      if (isDuplicateReference(answer))
        return debitOutcome(ps, await verified(ps, providerReference));
      return {
        kind: 'failed',
        providerReference: null,
        reason: debitDeclineReason(answer.message),
      };
    },

    requeryDebit: (reference) => requeryPaystackDebit(ps, reference),

    // Paystack answers a debit once it ended (a pending one is asked about until then): none
    // waits at the bank to be cancelled, so its requery answers.
    cancelDebit: ({ reference }) => requeryPaystackDebit(ps, reference),

    reverseDebit: async ({ providerReference, reference }) => {
      await giveBack(ps, {
        transaction: providerReference,
        amount: undefined,
        reference,
        reason: null,
      });
      return { reversed: true };
    },
  };
}
