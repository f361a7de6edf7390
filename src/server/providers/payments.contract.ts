// The contract of the whole PaymentProvider port, for an adapter that offers every capability
// (the sandbox network: sandbox/sandbox-card-network.test.ts runs it). Each capability has its
// own suite in contract/, which an adapter offering only some runs alone (Paystack:
// paystack/paystack.contract.test.ts).
import type { TCardScenario } from '../sandbox/sandbox-card-network';
import { acquirerContract, type TAcquirerUnderTest } from './contract/acquirer.contract';
import { banksContract } from './contract/banks.contract';
import { bvnRegistryContract } from './contract/bvn-registry.contract';
import { cardsContract, type TCardsUnderTest } from './contract/cards.contract';
import { contractReference } from './contract/contract-references';
import { debitsContract } from './contract/debits.contract';
import {
  mandateSetupContract,
  type TMandateSetupUnderTest,
} from './contract/mandate-setup.contract';
import { noticesContract, type TNoticesUnderTest } from './contract/notices.contract';
import { payoutsContract } from './contract/payouts.contract';
import { refundsContract } from './contract/refunds.contract';
import { settlementSetupOf } from './contract/settlement-setup';
import { settlementContract } from './contract/settlement.contract';
import { transfersInContract } from './contract/transfers-in.contract';
import type { TBvnRecord, TPaymentPorts, TPlainCard } from './payments';

export type TPaymentProviderUnderTest = {
  provider: TPaymentPorts;
  /** A test card of the provider's that takes this path, with its PIN and OTP. */
  cardFor(scenario: TCardScenario): { card: TPlainCard; otp: string };
  /** The bank account the `pin_only` card draws on (knownAccount is another). */
  cardAccount: { institutionCode: string; accountNumber: string };
  /** An account the provider's name enquiry finds, with its holder's BVN. */
  knownAccount: {
    institutionCode: string;
    accountNumber: string;
    accountName: string;
    bvn: string;
  };
  /** What the BVN registry holds for knownAccount's BVN. */
  knownHolder: TBvnRecord;
  /** The newest code the BVN registry sent to knownHolder's phone. */
  bvnCodeSent(): Promise<string>;
  /** An account whose balance cannot cover a debit of ₦10,000.00 (and one that can: knownAccount). */
  poorAccount: { institutionCode: string; accountNumber: string };
} & Pick<TCardsUnderTest, 'answerThreeDs'> &
  Pick<TMandateSetupUnderTest, 'altAccount'> &
  Pick<TAcquirerUnderTest, 'reader' | 'chipPurchaseFor' | 'tamper'> &
  Pick<TNoticesUnderTest, 'transferNotice'>;

/** The payer whose mandates the contract's debits run on. */
const PAYER = 'pyr_contract';

/** The mandate the whole-port adapter debits on: its own records, not a provider's code. */
const MANDATE = 'alk_contract';
/** An account no bank of the whole-port adapter holds. */
const UNKNOWN_ACCOUNT = { institutionCode: '058', accountNumber: '0000000000' };

export function paymentProviderContract(
  adapter: string,
  make: () => Promise<TPaymentProviderUnderTest>,
) {
  // One adapter for every suite of the run.
  let made: Promise<TPaymentProviderUnderTest> | undefined;
  const once = () => (made ??= make());
  const settled = async () => {
    const underTest = await once();
    return { underTest, provider: underTest.provider, settlement: underTest.provider.settlement };
  };

  cardsContract(adapter, async () => {
    const { underTest, provider, settlement } = await settled();
    return {
      provider: provider.cards,
      settlement,
      cardFor: (scenario) => underTest.cardFor(scenario),
      notTheCardsAccount: underTest.knownAccount,
      answerThreeDs: (outcome, approved) => underTest.answerThreeDs(outcome, approved),
    };
  });
  banksContract(adapter, async () => {
    const { underTest, provider } = await settled();
    return { provider: provider.banks, knownAccount: underTest.knownAccount };
  });
  bvnRegistryContract(adapter, async () => {
    const { underTest, provider } = await settled();
    const { institutionCode, accountNumber, bvn } = underTest.knownAccount;
    const { fullName, dateOfBirth, phoneNumber } = underTest.knownHolder;
    return {
      provider: provider.bvn,
      knownBvn: bvn,
      knownHolder: { fullName, dateOfBirth },
      accountUnderBvn: { institutionCode, accountNumber },
      hiddenContact: phoneNumber,
      answersAccounts: true,
      codeSent: () => underTest.bvnCodeSent(),
    };
  });
  mandateSetupContract(adapter, async () => {
    const { underTest, provider } = await settled();
    return {
      provider: provider.mandates,
      altAccount: underTest.altAccount,
      notAltAccount: underTest.knownAccount,
    };
  });
  debitsContract(adapter, async () => {
    const { underTest, provider, settlement } = await settled();
    return {
      provider: provider.debits,
      settlement,
      fundedAccount: { ...underTest.knownAccount, mandateReference: MANDATE, payerId: PAYER },
      poorAccount: { ...underTest.poorAccount, mandateReference: MANDATE, payerId: PAYER },
      unknownAccount: { ...UNKNOWN_ACCOUNT, mandateReference: MANDATE, payerId: PAYER },
    };
  });
  payoutsContract(adapter, async () => {
    const { underTest, provider, settlement } = await settled();
    const { institutionCode, accountNumber, accountName } = underTest.knownAccount;
    return {
      provider: provider.payouts,
      settlement,
      payee: { institutionCode, accountNumber, accountName },
      unknownPayee: { ...UNKNOWN_ACCOUNT, accountName },
    };
  });
  transfersInContract(adapter, async () => ({ provider: (await once()).provider.transfersIn }));
  noticesContract(adapter, async () => {
    const { underTest, provider } = await settled();
    return {
      provider: provider.notices,
      transfersIn: provider.transfersIn,
      transferNotice: (account, amount) => underTest.transferNotice(account, amount),
    };
  });
  refundsContract(adapter, async () => {
    const { underTest, provider } = await settled();
    return {
      provider: provider.refunds,
      async paidCardCharge(amount) {
        const paid = await provider.cards.chargeCard({
          reference: contractReference(),
          amount,
          narration: 'Order 22',
          card: underTest.cardFor('pin_only').card,
        });
        if (paid.kind !== 'succeeded') throw new Error(`expected success, got ${paid.kind}`);
        return { providerReference: paid.providerReference };
      },
    };
  });
  settlementContract(adapter, ['card', 'chip', 'debit', 'payout', 'refund'], async () => {
    const { underTest, provider, settlement } = await settled();
    const { acquirer } = provider;
    if (acquirer.kind !== 'reader') throw new Error(`${adapter}'s terminal takes no reader`);
    const { institutionCode, accountNumber, accountName } = underTest.knownAccount;
    return settlementSetupOf({
      settlement,
      cards: provider.cards,
      paidCard: underTest.cardFor('pin_only').card,
      declinedCard: underTest.cardFor('declined').card,
      refunds: provider.refunds,
      payouts: { port: provider.payouts, payee: { institutionCode, accountNumber, accountName } },
      debits: {
        port: provider.debits,
        account: { institutionCode, accountNumber, mandateReference: MANDATE, payerId: PAYER },
      },
      chip: {
        port: acquirer,
        purchaseOf: (amount) => underTest.chipPurchaseFor('chip_approved', amount),
      },
    });
  });
  acquirerContract(adapter, async () => {
    const { underTest, provider, settlement } = await settled();
    if (provider.acquirer.kind !== 'reader')
      throw new Error(`${adapter}'s terminal takes no reader`);
    return {
      provider: provider.acquirer,
      settlement,
      reader: underTest.reader,
      chipPurchaseFor: (scenario, amount, pin) => underTest.chipPurchaseFor(scenario, amount, pin),
      tamper: (iccData, tag, value) => underTest.tamper(iccData, tag, value),
    };
  });
}
