// The settlement suite's setup (TSettlementSetup) made from an adapter's own ports: money taken
// by the port calls the app makes, with the adapter's test cards, payee, mandate and chip reads.
// An adapter whose money is taken otherwise writes its own setup.
import type {
  TCardsPort,
  TChipPurchase,
  TDebitsPort,
  TPayoutsPort,
  TPlainCard,
  TReaderAcquirerPort,
  TRefundsPort,
  TSettlementPort,
} from '../payments';
import { contractReference } from './contract-references';
import type { TSettlementSetup } from './settlement.contract';

export type TSettlementPorts = {
  settlement: TSettlementPort;
  cards: TCardsPort;
  /** A card charged with no step (its PIN with it where it asks one), and one its issuer declines. */
  paidCard: TPlainCard;
  declinedCard: TPlainCard;
  refunds?: TRefundsPort;
  payouts?: {
    port: TPayoutsPort;
    payee: { institutionCode: string; accountNumber: string; accountName: string };
  };
  debits?: {
    port: TDebitsPort;
    account: {
      institutionCode: string;
      accountNumber: string;
      mandateReference: string;
      payerId: string;
    };
  };
  chip?: {
    port: TReaderAcquirerPort;
    /** An approved chip purchase of `amount`, as the reader read it (its reference set here). */
    purchaseOf(amount: number): Omit<TChipPurchase, 'reference'>;
  };
};

/** The setup of the channels the ports given serve: 'card' always, the others where given. */
export function settlementSetupOf(ports: TSettlementPorts): TSettlementSetup {
  const charges = new Map<string, string>();
  const charge = async (reference: string, amount: number, card: TPlainCard) =>
    ports.cards.chargeCard({ reference, amount, narration: 'Order 22', card });
  const paidCharge = async (reference: string, amount: number) => {
    const paid = await charge(reference, amount, ports.paidCard);
    if (paid.kind !== 'succeeded') throw new Error(`The card charge ${reference} ${paid.kind}`);
    charges.set(reference, paid.providerReference);
    return paid.providerReference;
  };
  const take: TSettlementSetup['take'] = {
    card: async (reference, amount) => {
      await paidCharge(reference, amount);
    },
  };
  const { refunds, payouts, debits, chip } = ports;
  if (refunds) {
    take.refund = async (reference, amount) => {
      const providerReference = await paidCharge(contractReference(), amount * 2);
      const createdAt = new Date();
      const asked = { reference, providerReference, channel: 'card' as const };
      const first = await refunds.refund({
        ...asked,
        amount,
        sender: null,
        reason: 'Returned goods',
        createdAt,
      });
      if (first.kind === 'failed') throw new Error(`The refund ${reference} failed`);
      // Held once processed: a refund may take its time at the provider.
      for (
        let tries = 0;
        (await refunds.requeryRefund({ ...asked, createdAt })).kind !== 'processed';
        tries += 1
      ) {
        if (tries > 50) throw new Error(`The refund ${reference} was not processed`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
  }
  if (payouts) {
    take.payout = async (reference, amount) => {
      const sent = await payouts.port.payOut({
        reference,
        ...payouts.payee,
        amount,
        narration: 'Collections released',
      });
      if (sent.kind !== 'succeeded') throw new Error(`The payout ${reference} ${sent.kind}`);
    };
  }
  if (debits) {
    take.debit = async (reference, amount) => {
      const debited = await debits.port.debitAccount({
        reference,
        ...debits.account,
        amount,
        narration: 'Membership',
      });
      if (debited.kind !== 'succeeded') throw new Error(`The debit ${reference} ${debited.kind}`);
    };
  }
  if (chip) {
    take.chip = async (reference, amount) => {
      const approved = await chip.port.terminalChipPurchase({
        ...chip.purchaseOf(amount),
        reference,
      });
      if (approved.kind !== 'approved')
        throw new Error(`The chip purchase ${reference} ${approved.kind}`);
    };
  }
  return {
    settlement: ports.settlement,
    take,
    async giveBackCard(reference) {
      const providerReference = charges.get(reference);
      if (!providerReference) throw new Error(`No card charge was taken under ${reference}`);
      const paid = await ports.cards.requeryCardCharge(reference);
      if (paid.kind !== 'taken') throw new Error(`The charge ${reference} reads ${paid.kind}`);
      await ports.cards.refundCard({ providerReference, amount: paid.amount, reference });
    },
    async refuseCard(reference, amount) {
      const refused = await charge(reference, amount, ports.declinedCard);
      if (refused.kind !== 'failed') throw new Error(`The declined card's charge ${refused.kind}`);
    },
  };
}
