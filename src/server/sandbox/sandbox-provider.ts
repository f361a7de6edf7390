import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxDebits, sandboxPayouts } from '../db/schema';
import { SANDBOX_BANKS, SANDBOX_CHIP_CARDS, SANDBOX_READERS } from './fixtures';
import { openVirtualAccount, returnSandboxTransfer } from './sandbox-bank';
import { readSandboxNotice } from './sandbox-notices';
import { chargeSettlementLines } from './sandbox-charges';
import {
  bankSettlementLines,
  debitSandboxAccount,
  payOutToSandboxAccount,
  requeryBankRecord,
  reverseSandboxDebit,
} from './sandbox-debits';
import type { TAuthParam } from '../../domain/schemas/account-link';
import type {
  TReaderAcquirerPort,
  TBanksPort,
  TCardsPort,
  TDebitsPort,
  TMandateSetupPort,
  TNoticesPort,
  TPaymentPorts,
  TPayoutsPort,
  TRefundsPort,
  TSettlementPort,
  TTransfersInPort,
} from '../providers/payments';
import { sandboxAcquirer } from './sandbox-acquirer';
import type { TSandboxCardNetwork } from './sandbox-card-network';
import { findSandboxAccount } from './sandbox-people';
import { sandboxBvnRegistry, type TSandboxCodeDelivery } from './sandbox-bvn-registry';
import { refundInSandbox, refundSettlementLines, requerySandboxRefund } from './sandbox-refunds';

/** How long the sandbox bank takes to approve a signed paper mandate, on the server's clock. */
export const SANDBOX_PAPER_APPROVAL_MS = 2 * 60_000;

/** The references the sandbox's alternate service issues: ours, prefixed, so a retry matches. */
const ALT_REF_PREFIX = 'sbx_rrr_';

/** What the sandbox's alternate service asks: a card's last 4 digits and the bank's OTP. */
const SANDBOX_AUTH_PARAMS: TAuthParam[] = [
  {
    param1: 'CARD',
    param2: 'OTP',
    label1: 'Card last 4 digits',
    label2: 'OTP',
    description1: 'The last 4 digits of a debit card on this account',
    description2: 'The 6-digit code your bank sent to your phone',
  },
];

/**
 * A call that moves money, answered `delayMs` after the sandbox recorded what it did
 * (SANDBOX_ANSWER_DELAY_MS: a slow answer, the window in which a crash loses it).
 */
function answeredAfter<TArgs extends unknown[], TAnswer>(
  delayMs: number,
  call: (...args: TArgs) => Promise<TAnswer>,
): (...args: TArgs) => Promise<TAnswer> {
  if (delayMs <= 0) return call;
  return async (...args) => {
    const answer = await call(...args);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return answer;
  };
}

/** What the sandbox's capabilities are made of: its database, clock and answer delay. */
type TSandboxParts = {
  cards: TSandboxCardNetwork;
  db: TDb;
  clock: TClock;
  /** How long each call that moves money waits, after recording it, before it answers. */
  answerDelayMs?: number;
  /** Where its BVN registry's codes go: the server's SMS outbox (context.ts). */
  deliverBvnCode?: TSandboxCodeDelivery | undefined;
};

/** Wraps a call that moves money so it answers after the sandbox's answer delay. */
type TSlow = <TArgs extends unknown[], TAnswer>(
  call: (...args: TArgs) => Promise<TAnswer>,
) => (...args: TArgs) => Promise<TAnswer>;

/**
 * The sandbox adapter of the PaymentProvider port (docs/sandbox.md): the sandbox card network
 * for cards, the sandbox bank, whose tables live in our database, for one-time accounts and
 * direct debits, and the sandbox acquirer for card readers' chip purchases (docs/terminal.md).
 * Each keeps its record of what it took and gave back by our reference, in the same database:
 * what its requeries and its settlement report answer from.
 */
export function sandboxPaymentProvider(parts: TSandboxParts): TPaymentPorts {
  const slow: TSlow = (call) => answeredAfter(parts.answerDelayMs ?? 0, call);
  return {
    cards: sandboxCardsPort(parts.cards, slow),
    banks: sandboxBanksPort(parts.db),
    bvn: sandboxBvnRegistry({ db: parts.db, clock: parts.clock, deliver: parts.deliverBvnCode }),
    mandates: sandboxMandatesPort(parts.db, parts.clock),
    debits: sandboxDebitsPort(parts, slow),
    payouts: sandboxPayoutsPort(parts, slow),
    refunds: sandboxRefundsPort(parts, slow),
    transfersIn: sandboxTransfersInPort(parts, slow),
    notices: sandboxNoticesPort(parts.db),
    acquirer: sandboxAcquirerPort(parts, slow),
    settlement: sandboxSettlementPort(parts.db),
  };
}

/** Card charges: the sandbox card network, its calls that move money answered after the delay. */
function sandboxCardsPort(cards: TSandboxCardNetwork, slow: TSlow): TCardsPort {
  return {
    provider: 'sandbox',
    chargeCard: slow((request) => cards.chargeCard(request)),
    submitCardPin: slow((request) => cards.submitCardPin(request)),
    submitCardOtp: slow((request) => cards.submitCardOtp(request)),
    refundCard: slow((request) => cards.refundCard(request)),
    requeryCardCharge: (reference) => cards.requeryCardCharge(reference),
    isCardOnAccount: (request) => cards.isCardOnAccount(request),
  };
}

/** The sandbox bank list and its name enquiry, which answers the holder's BVN. */
function sandboxBanksPort(db: TDb): TBanksPort {
  return {
    provider: 'sandbox',
    lookupBank: async (institutionCode) =>
      SANDBOX_BANKS.find((bank) => bank.institutionCode === institutionCode) ?? null,
    listBanks: async () => SANDBOX_BANKS,
    async nameEnquiry({ institutionCode, accountNumber }) {
      const account = await findSandboxAccount(db, { institutionCode, accountNumber });
      const bank = SANDBOX_BANKS.find((b) => b.institutionCode === institutionCode);
      if (!account || !bank) return null;
      return {
        accountName: account.accountName,
        // The sandbox's enquiry reference names what was asked, so a repeat answers the same.
        nameEnquiryId: `sbx_ne_${institutionCode}_${accountNumber}`,
        // A 'not_supported' account is one its bank offers no mandate for (spec §2 'Not supported').
        integrations: account.scenario === 'not_supported' ? [] : bank.integrations,
        bvn: account.bvn,
      };
    },
    // The sandbox's name enquiry answers the holder's BVN: the check is a comparison.
    async checkAccountHolder({ bvn, institutionCode, accountNumber }) {
      const account = await findSandboxAccount(db, { institutionCode, accountNumber });
      return account?.bvn === bvn ? 'matches' : 'differs';
    },
  };
}

/** The sandbox's alternate service (its auth parameters) and its bank's paper mandates. */
function sandboxMandatesPort(db: TDb, clock: TClock): TMandateSetupPort {
  return {
    provider: 'sandbox',
    async requestAltMandate({ reference, institutionCode, accountNumber }) {
      const account = await findSandboxAccount(db, { institutionCode, accountNumber });
      const bank = SANDBOX_BANKS.find((b) => b.institutionCode === institutionCode);
      if (!account?.authParams || !bank?.integrations.includes('altTransactionService')) {
        return null;
      }
      return {
        authReference: `${ALT_REF_PREFIX}${reference}`,
        requestId: `sbx_req_${reference}`,
        logoUrl: null,
        authParams: SANDBOX_AUTH_PARAMS,
      };
    },
    async verifyAltMandate({ authReference, institutionCode, accountNumber, answers }) {
      const expected = (await findSandboxAccount(db, { institutionCode, accountNumber }))
        ?.authParams;
      if (!expected || !authReference.startsWith(ALT_REF_PREFIX)) return { verified: false };
      const answer = (param: string) =>
        answers.find((a) => a.param.toUpperCase() === param)?.value.trim();
      return {
        verified: answer('CARD') === expected.cardLast4 && answer('OTP') === expected.otp,
      };
    },
    // The sandbox keeps no alternate-service mandate: only the right answers activate a link.
    altMandateActive: async () => false,
    paperMandateStatus: async ({ issuedAt }) =>
      clock.now().getTime() - issuedAt.getTime() >= SANDBOX_PAPER_APPROVAL_MS
        ? 'approved'
        : 'pending',
  };
}

/** Direct debits on the sandbox bank's accounts, their mandates proven by a test transfer. */
function sandboxDebitsPort({ db, clock }: TSandboxParts, slow: TSlow): TDebitsPort {
  return {
    provider: 'sandbox',
    // A sandbox bank's mandate is proven by a test transfer from the account.
    debitMandates: { kind: 'test_transfer' },
    debitAccount: slow((request) => debitSandboxAccount(db, clock, request)),
    requeryDebit: (reference) => requeryBankRecord(db, clock, sandboxDebits, reference),
    reverseDebit: slow(({ providerReference }) =>
      reverseSandboxDebit(db, clock, providerReference),
    ),
    // The sandbox bank debits at once: a debit never waits to be cancelled.
    cancelDebit: ({ reference }) => requeryBankRecord(db, clock, sandboxDebits, reference),
  };
}

/** Payouts from the sandbox bank's collection account. */
function sandboxPayoutsPort({ db, clock }: TSandboxParts, slow: TSlow): TPayoutsPort {
  return {
    provider: 'sandbox',
    payOut: slow((request) => payOutToSandboxAccount(db, clock, request)),
    requeryPayout: (reference) => requeryBankRecord(db, clock, sandboxPayouts, reference),
  };
}

/** A merchant's refunds, given back by the way the money came. */
function sandboxRefundsPort({ db, clock }: TSandboxParts, slow: TSlow): TRefundsPort {
  return {
    provider: 'sandbox',
    refund: slow((request) => refundInSandbox(db, clock, request)),
    requeryRefund: (request) => requerySandboxRefund(db, clock, request),
  };
}

/** The sandbox bank's one-time accounts, and transfers into them given back. */
function sandboxTransfersInPort({ db, clock }: TSandboxParts, slow: TSlow): TTransfersInPort {
  return {
    provider: 'sandbox',
    openTransferAccount: (request) => openVirtualAccount(db, clock, request),
    returnTransfer: slow((request) => returnSandboxTransfer(db, request)),
  };
}

/** The sandbox's own notices, read from its record of them. */
function sandboxNoticesPort(db: TDb): TNoticesPort {
  return { provider: 'sandbox', readNotice: (notice) => readSandboxNotice(db, notice) };
}

/** The sandbox acquirer of card readers' chip purchases and its registered readers. */
function sandboxAcquirerPort({ db, clock }: TSandboxParts, slow: TSlow): TReaderAcquirerPort {
  const acquirer = sandboxAcquirer({
    db,
    clock,
    readers: SANDBOX_READERS,
    cards: SANDBOX_CHIP_CARDS,
  });
  return {
    kind: 'reader',
    provider: 'sandbox',
    terminalFetchKeys: (serial) => acquirer.terminalFetchKeys(serial),
    terminalChipPurchase: slow((request) => acquirer.terminalChipPurchase(request)),
    requeryChipPurchase: (reference) => acquirer.requeryChipPurchase(reference),
    terminalReverse: slow((request) => acquirer.terminalReverse(request)),
  };
}

/** The sandbox's record of what it took: its card network's, its bank's and its refunds'. */
function sandboxSettlementPort(db: TDb): TSettlementPort {
  return {
    provider: 'sandbox',
    settlementReport: async () => [
      ...(await chargeSettlementLines(db)),
      ...(await bankSettlementLines(db)),
      ...(await refundSettlementLines(db)),
    ],
  };
}
