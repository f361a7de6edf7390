import { systemClock } from '../../clock';
import { contractSetup } from '../../testing/contract-setup';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from '../../testing/monnify-simulator/monnify-simulator';
import { TEST_OTP } from '../../testing/monnify-simulator/collections';
import { banksContract } from '../contract/banks.contract';
import { cardsContract, type TCardPath } from '../contract/cards.contract';
import { contractReference } from '../contract/contract-references';
import { noticesContract } from '../contract/notices.contract';
import { payoutsContract } from '../contract/payouts.contract';
import { refundsContract } from '../contract/refunds.contract';
import { settlementSetupOf } from '../contract/settlement-setup';
import { settlementContract } from '../contract/settlement.contract';
import { transfersInContract } from '../contract/transfers-in.contract';
import type { TPayoutsPort, TPlainCard } from '../payments';
import { monnifyProvider, type TMonnifyProvider } from './monnify-provider';

/*
 * The Monnify adapter through the suites of the capabilities it offers, against the Monnify
 * simulator (testing/monnify-simulator) and its copies of Monnify's published test cards. The
 * suites that read the settlement report read the adapter's own, from the simulator's lists.
 * Every request the adapter sent is checked against Monnify's published request schemas in
 * monnify-requests.test.ts.
 */

const started = contractSetup({
  simulator: (noticeUrl) => startMonnifySimulator({ noticeUrl }),
  provider: (simulator, db): TMonnifyProvider =>
    monnifyProvider({
      apiKey: simulator.apiKey,
      secretKey: simulator.secretKey,
      contractCode: simulator.contractCode,
      baseUrl: simulator.url,
      walletAccountNumber: simulator.walletAccountNumber,
      db,
      clock: systemClock,
      readRetryDelaysMs: [20, 200],
    }),
});

const testCard = (number: string, pin: string | null, otp = '') => ({
  card: { number, expiry: '12/35', cvv: '123', pin },
  otp,
});

/** Monnify's test cards (its API reference: PIN 1234, CVV 123), and the simulator's own. */
const CARDS: Record<TCardPath, { card: TPlainCard; otp: string }> = {
  pin_only: testCard('4111111111111111', '1234'),
  pin_otp: testCard('5060995994247093', '1234', TEST_OTP),
  three_ds: testCard('4000000000000002', null),
  declined: testCard('4111111111111110', '1234'),
  insufficient_funds: testCard('5399230000000014', '1234'),
  timeout: testCard('5399230000000022', '1234'),
};

const KNOWN_ACCOUNT = {
  institutionCode: '058',
  accountNumber: '0123456789',
  accountName: 'ADAEZE OKAFOR',
};

cardsContract('monnify (simulator)', async () => {
  const { simulator: sim, provider: monnify } = await started();
  return {
    provider: monnify.cards,
    settlement: monnify.settlement,
    cardFor: (path) => CARDS[path],
    notTheCardsAccount: KNOWN_ACCOUNT,
    // The payer answers at the issuer's page; the app learns the end by asking (or a notice).
    async answerThreeDs(outcome, approved) {
      const id = new URL(outcome.challengeUrl).pathname.split('/').pop() ?? '';
      await sim.answerThreeDs(id, approved);
      const answer = await monnify.cards.requeryCardCharge(
        await referenceOf(sim, outcome.providerReference),
      );
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
      throw new Error(`The charge ${outcome.providerReference} is still pending after 3-D Secure`);
    },
  };
});

/** Our reference of a Monnify transaction, as Monnify's record of it names it. */
async function referenceOf(sim: TMonnifySimulator, transactionReference: string) {
  const answer = await fetch(`${sim.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sim.apiKey}:${sim.secretKey}`).toString('base64')}`,
    },
  });
  const { responseBody } = (await answer.json()) as { responseBody: { accessToken: string } };
  const record = await fetch(
    `${sim.url}/api/v2/transactions/${encodeURIComponent(transactionReference)}`,
    { headers: { authorization: `Bearer ${responseBody.accessToken}` } },
  );
  const body = (await record.json()) as { responseBody?: { paymentReference?: string } };
  return body.responseBody?.paymentReference ?? '';
}

banksContract('monnify (simulator)', async () => ({
  provider: (await started()).provider.banks,
  // Account validation names the holder, never their BVN.
  knownAccount: { ...KNOWN_ACCOUNT, bvn: null },
}));

transfersInContract('monnify (simulator)', async () => ({
  provider: (await started()).provider.transfersIn,
}));

payoutsContract('monnify (simulator)', async () => {
  const { provider: monnify } = await started();
  return {
    provider: monnify.payouts as TPayoutsPort,
    settlement: monnify.settlement,
    payee: KNOWN_ACCOUNT,
    unknownPayee: { institutionCode: '058', accountNumber: '0000000000', accountName: 'NOBODY' },
  };
});

refundsContract('monnify (simulator)', async () => {
  const { provider: monnify } = await started();
  return {
    provider: monnify.refunds,
    async paidCardCharge(amount) {
      const paid = await monnify.cards.chargeCard({
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

// Every channel Monnify holds money by: its cards, its payouts from the wallet, its refunds.
settlementContract('monnify (simulator)', ['card', 'payout', 'refund'], async () => {
  const { provider: monnify } = await started();
  return settlementSetupOf({
    settlement: monnify.settlement,
    cards: monnify.cards,
    paidCard: CARDS.pin_only.card,
    declinedCard: CARDS.declined.card,
    refunds: monnify.refunds,
    payouts: { port: monnify.payouts as TPayoutsPort, payee: KNOWN_ACCOUNT },
  });
});

noticesContract('monnify (simulator)', async () => {
  const { simulator: sim, provider: monnify, receiver: notices } = await started();
  return {
    provider: monnify.notices,
    transfersIn: monnify.transfersIn,
    // The payer's bank sends the money; Monnify's SUCCESSFUL_TRANSACTION reaches our notice URL.
    async transferNotice(account, amount) {
      const before = notices.received.length;
      await sim.payTransfer(account.accountNumber, amount);
      const notice = notices.received
        .slice(before)
        .find((raw) => raw.body.toString('utf8').includes('"eventType":"SUCCESSFUL_TRANSACTION"'));
      if (!notice) throw new Error(`No notice of the transfer into ${account.accountNumber}`);
      return notice;
    },
  };
});
