import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { SANDBOX_ACCOUNTS, SANDBOX_BANKS } from '../sandbox/fixtures';
import { openVirtualAccount } from '../sandbox/sandbox-bank';
import type { TPaymentProvider } from './payments';
import type { TSandboxCardNetwork } from './sandbox-card-network';

/**
 * The sandbox adapter of the PaymentProvider port (docs/sandbox.md): the sandbox card network
 * for cards, and the sandbox bank, whose tables live in our database, for one-time accounts.
 */
export function sandboxPaymentProvider(parts: {
  cards: TSandboxCardNetwork;
  db: TDb;
  clock: TClock;
}): TPaymentProvider {
  const { cards, db, clock } = parts;
  return {
    name: 'sandbox',
    chargeCard: (request) => cards.chargeCard(request),
    submitCardOtp: (request) => cards.submitCardOtp(request),
    refundCard: (request) => cards.refundCard(request),
    lookupBank: async (institutionCode) =>
      SANDBOX_BANKS.find((bank) => bank.institutionCode === institutionCode) ?? null,
    listBanks: async () => SANDBOX_BANKS,
    async nameEnquiry({ institutionCode, accountNumber }) {
      const account = SANDBOX_ACCOUNTS.find(
        (a) => a.institutionCode === institutionCode && a.accountNumber === accountNumber,
      );
      const bank = SANDBOX_BANKS.find((b) => b.institutionCode === institutionCode);
      if (!account || !bank) return null;
      return {
        accountName: account.accountName,
        // The sandbox's enquiry reference names what was asked, so a repeat answers the same.
        nameEnquiryId: `sbx_ne_${institutionCode}_${accountNumber}`,
        // A 'not_supported' account is one its bank offers no mandate for (spec §2 'Not supported').
        integrations: account.scenario === 'not_supported' ? [] : bank.integrations,
      };
    },
    openTransferAccount: (request) => openVirtualAccount(db, clock, request),
  };
}
