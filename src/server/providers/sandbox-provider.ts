import type { TClock } from '../clock';
import type { TDb } from '../db/database';
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
    openTransferAccount: (request) => openVirtualAccount(db, clock, request),
  };
}
