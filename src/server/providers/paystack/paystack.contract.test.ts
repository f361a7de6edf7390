import { describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { contractSetup } from '../../testing/contract-setup';
import { startPaystackSimulator } from '../../testing/paystack-simulator/paystack-simulator';
import { publishedOperation } from '../../testing/paystack-simulator/published-contract';
import { banksContract } from '../contract/banks.contract';
import { cardsContract, type TCardPath } from '../contract/cards.contract';
import { contractReference } from '../contract/contract-references';
import { debitsContract, type TMandatedAccount } from '../contract/debits.contract';
import { noticesContract } from '../contract/notices.contract';
import { payoutsContract } from '../contract/payouts.contract';
import { refundsContract } from '../contract/refunds.contract';
import { settlementSetupOf } from '../contract/settlement-setup';
import { settlementContract } from '../contract/settlement.contract';
import { transfersInContract } from '../contract/transfers-in.contract';
import type { TPlainCard } from '../payments';
import {
  paystackProvider,
  paystackPayerEmail,
  paystackTerminalProvider,
  type TPaystackProvider,
} from './paystack-provider';
import { fromPaystackReference } from './paystack-references';

/*
 * The Paystack adapter through the suites of the capabilities it offers, against the Paystack
 * simulator (testing/paystack-simulator) and its copies of Paystack's published test cards.
 * The suites that read the settlement report read the adapter's own, from the simulator's
 * lists of transactions, transfers, refunds and paid payment requests, and the report's own suite
 * runs on every channel Paystack holds money by (the report's paging and filtering are tested in
 * paystack-settlement.test.ts against the list answers Paystack documents).
 */

const started = contractSetup({
  simulator: (noticeUrl) => startPaystackSimulator({ noticeUrl }),
  provider: (simulator, db): TPaystackProvider =>
    paystackProvider({
      secretKey: simulator.secretKey,
      baseUrl: simulator.url,
      db,
      clock: systemClock,
      // The simulator decides a pending charge at the first check: no need for Paystack's 10 s.
      pendingCheckDelaysMs: [20, 200, 1_000],
      readRetryDelaysMs: [20, 200],
    }),
});

/** A Paystack test card (any future expiry), with its PIN and OTP where it asks them. */
const testCard = (number: string, cvv: string, pin: string | null = null, otp = '') => ({
  card: { number, expiry: '12/35', cvv, pin },
  otp,
});

/** Paystack's test cards (docs/providers/paystack.md "Test cards"), one per path of the suite. */
const CARDS: Record<TCardPath, { card: TPlainCard; otp: string }> = {
  // Paystack's test cards ask no PIN unless they say so: this one succeeds with no step.
  pin_only: testCard('4084084084084081', '408'),
  pin_otp: testCard('507850785078507812', '081', '1111', '123456'),
  three_ds: testCard('4084080000000409', '000'),
  declined: testCard('4084080000005408', '001'),
  insufficient_funds: testCard('4084080000670037', '787'),
  timeout: testCard('5060660000000064', '606'),
};

const KNOWN_ACCOUNT = {
  institutionCode: '058',
  accountNumber: '0123456789',
  accountName: 'ADAEZE OKAFOR',
};

/** The payer whose Paystack customer gives the mandates. */
const MANDATE_PAYER = 'pyr_mandates';

/** A direct-debit authorisation the payer approved at their bank's page (Paystack's mandate). */
async function approvedMandate(account: {
  institutionCode: string;
  accountNumber: string;
}): Promise<TMandatedAccount> {
  const { simulator: sim } = await started();
  const call = async (path: string, init?: RequestInit) => {
    const answer = await fetch(`${sim.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${sim.secretKey}`, 'content-type': 'application/json' },
    });
    return (await answer.json()) as { data: Record<string, string> };
  };
  const { data: opened } = await call('/customer/authorization/initialize', {
    method: 'POST',
    body: JSON.stringify({
      email: paystackPayerEmail(MANDATE_PAYER),
      channel: 'direct_debit',
      account: { number: account.accountNumber, bank_code: account.institutionCode },
    }),
  });
  const reference = opened.reference ?? '';
  await sim.answerMandate(reference, true);
  const { data: verified } = await call(`/customer/authorization/verify/${reference}`);
  return {
    ...account,
    mandateReference: verified.authorization_code ?? '',
    payerId: MANDATE_PAYER,
  };
}

cardsContract('paystack (simulator)', async () => {
  const { simulator: sim, provider: paystack } = await started();
  return {
    provider: paystack.cards,
    settlement: paystack.settlement,
    cardFor: (path) => CARDS[path],
    notTheCardsAccount: KNOWN_ACCOUNT,
    // The payer answers at the issuer's page; the app learns the end by asking (or a notice).
    async answerThreeDs(outcome, approved) {
      await sim.answerThreeDs(outcome.providerReference, approved);
      const reference = fromPaystackReference(outcome.providerReference) ?? '';
      const answer = await paystack.cards.requeryCardCharge(reference);
      if (answer.kind === 'taken') {
        return {
          kind: 'succeeded',
          providerReference: answer.providerReference,
          card: answer.card,
          token: null,
        };
      }
      if (answer.kind === 'not_taken') {
        const reason = answer.reason === 'three_ds_declined' ? answer.reason : 'declined';
        return {
          kind: 'failed',
          providerReference: answer.providerReference,
          card: outcome.card,
          reason,
        };
      }
      throw new Error(`The charge ${reference} is still pending after its 3-D Secure answer`);
    },
  };
});

banksContract('paystack (simulator)', async () => ({
  provider: (await started()).provider.banks,
  // Resolve Account names the holder, never their BVN.
  knownAccount: { ...KNOWN_ACCOUNT, bvn: null },
}));

transfersInContract('paystack (simulator)', async () => ({
  provider: (await started()).provider.transfersIn,
}));

debitsContract('paystack (simulator)', async () => {
  const { simulator: sim, provider: paystack } = await started();
  const poorAccount = await approvedMandate({
    institutionCode: '044',
    accountNumber: '0690000031',
  });
  sim.declineAuthorization(poorAccount.mandateReference, 'Insufficient Funds');
  return {
    provider: paystack.debits,
    settlement: paystack.settlement,
    fundedAccount: await approvedMandate(KNOWN_ACCOUNT),
    poorAccount,
    unknownAccount: {
      ...KNOWN_ACCOUNT,
      mandateReference: 'AUTH_neverissued',
      payerId: MANDATE_PAYER,
    },
  };
});

payoutsContract('paystack (simulator)', async () => ({
  provider: (await started()).provider.payouts,
  settlement: (await started()).provider.settlement,
  payee: KNOWN_ACCOUNT,
  // The simulator's account whose payouts its bank refuses (transfer.failed).
  unknownPayee: { institutionCode: '058', accountNumber: '0000000000', accountName: 'NOBODY' },
}));

refundsContract('paystack (simulator)', async () => {
  const { provider: paystack } = await started();
  return {
    provider: paystack.refunds,
    async paidCardCharge(amount) {
      const paid = await paystack.cards.chargeCard({
        reference: contractReference(),
        amount,
        narration: 'Order 22',
        card: CARDS.pin_only.card,
      });
      if (paid.kind !== 'succeeded') throw new Error(`expected success, got ${paid.kind}`);
      return { providerReference: paid.providerReference };
    },
  };
});

noticesContract('paystack (simulator)', async () => {
  const { simulator: sim, provider: paystack, receiver: notices } = await started();
  return {
    provider: paystack.notices,
    transfersIn: paystack.transfersIn,
    // The payer's bank sends the money; Paystack's charge.success reaches our notice URL.
    async transferNotice(account, amount) {
      const before = notices.received.length;
      await sim.payTransfer(account.accountNumber, amount);
      const notice = notices.received
        .slice(before)
        .find((raw) => raw.body.toString('utf8').includes('"event":"charge.success"'));
      if (!notice) throw new Error(`No notice of the transfer into ${account.accountNumber}`);
      return notice;
    },
  };
});

let settlementTerminals = 0;
settlementContract(
  'paystack (simulator)',
  ['card', 'chip', 'debit', 'payout', 'refund'],
  async () => {
    const { simulator: sim, provider: paystack, database: db } = await started();
    const terminal = paystackTerminalProvider({
      secretKey: sim.secretKey,
      baseUrl: sim.url,
      db: db.db,
      clock: systemClock,
    });
    const setup = settlementSetupOf({
      settlement: paystack.settlement,
      cards: paystack.cards,
      paidCard: CARDS.pin_only.card,
      declinedCard: CARDS.declined.card,
      refunds: paystack.refunds,
      payouts: { port: paystack.payouts, payee: KNOWN_ACCOUNT },
      debits: { port: paystack.debits, account: await approvedMandate(KNOWN_ACCOUNT) },
    });
    // Paystack's chip payments are its Terminal's: a request pushed to a terminal, paid there.
    setup.take.chip = async (reference, amount) => {
      settlementTerminals += 1;
      const terminalId = `SETTLE${String(settlementTerminals).padStart(4, '0')}`;
      sim.addTerminal(terminalId, { online: true });
      const push = { reference, terminalId, amount, description: 'Till', createdAt: new Date() };
      const pushed = await terminal.pushPaymentRequest(push);
      if (pushed.kind !== 'pushed') throw new Error(`The push ${reference} was refused`);
      await sim.cardAtTerminal(terminalId, 'approved');
    };
    return setup;
  },
);

// Last, once every suite above ran: each body the adapter sent was held against Paystack's
// published schema of its operation by the simulator (published-contract.ts), which refuses one
// that does not match; none did.
describe("the adapter's requests against Paystack's published request schemas", () => {
  it('sent every body as its published operation takes it', async () => {
    const { simulator: sim } = await started();
    const posts = sim.requests.filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThan(20);
    // Every call with a body is one the copy holds (a bodiless one, Archive Payment Request, has
    // no schema to hold).
    const unheld = posts.filter(
      (r) => publishedOperation(r.method, r.path) === null && Object.keys(r.body ?? {}).length > 0,
    );
    expect(unheld.map((r) => r.path)).toEqual([]);
    expect(sim.contractBreaches).toEqual([]);
  });
});
