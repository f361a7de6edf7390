// The sandbox's refunds beyond the port's contract (providers/contract/refunds.contract.ts, run
// for the sandbox by payments.contract.ts): what its own records show of them. The balance of the
// account a debit or a transfer came from grows by what is given back; a repeated reference gives
// back once and is one line of the settlement report; a reference closed by a requery refuses a
// late refund; refunds of one charge at once never give back more than it took.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { TDatabase } from '../db/database';
import { sandboxRefunds, sandboxVirtualAccounts } from '../db/schema';
import type { TPaymentPorts, TTransferSender } from '../providers/payments';
import { openTestDatabase } from '../testing/test-app';
import { sandboxAccount, sandboxBalanceOf, sandboxCard } from '../testing/payments';
import { SANDBOX_CARDS } from './fixtures';
import { sandboxCardNetwork } from './sandbox-card-network';
import { sandboxPaymentProvider } from './sandbox-provider';

let database: TDatabase | undefined;
let provider: TPaymentPorts | undefined;

afterAll(async () => {
  await database?.close();
});

async function sandbox(): Promise<{ database: TDatabase; provider: TPaymentPorts }> {
  database ??= await openTestDatabase();
  const db = database.db;
  provider ??= sandboxPaymentProvider({
    db,
    clock: systemClock,
    cards: sandboxCardNetwork({
      db,
      clock: systemClock,
      cards: SANDBOX_CARDS,
      publicUrl: 'http://localhost:3999',
      timeoutMs: 5,
    }),
  });
  return { database, provider };
}

let seq = 0;
const ours = (what: string) => `att_${what}_${Date.now()}_${(seq += 1)}`;

const debitor = sandboxAccount('links_by_test_transfer');
const sender = sandboxAccount('links_by_auth_params');
const senderOf = (account: typeof sender): TTransferSender => ({
  institutionCode: account.institutionCode,
  bankName: 'Sandbox bank',
  accountNumber: account.accountNumber,
  accountName: account.accountName,
});

async function chargedCard(amount: number): Promise<string> {
  const { provider } = await sandbox();
  const { number, expiry, cvv, pin } = sandboxCard('pin_only');
  const charged = await provider.cards.chargeCard({
    reference: ours('card'),
    amount,
    narration: 'Order 17',
    card: { number, expiry, cvv, pin },
  });
  if (charged.kind !== 'succeeded') throw new Error(`The charge ${charged.kind}`);
  return charged.providerReference;
}

async function debitedAccount(amount: number): Promise<string> {
  const { provider } = await sandbox();
  const debited = await provider.debits.debitAccount({
    reference: ours('debit'),
    mandateReference: 'mandate_test',
    payerId: 'pyr_test',
    institutionCode: debitor.institutionCode,
    accountNumber: debitor.accountNumber,
    amount,
    narration: 'Order 17',
  });
  if (debited.kind !== 'succeeded') throw new Error(`The debit ${debited.kind}`);
  return debited.providerReference;
}

/** A one-time account the sender's transfer paid (the bank's record of it: paid). */
async function receivedTransfer(amount: number) {
  const { database } = await sandbox();
  const reference = ours('transfer');
  await database.db.insert(sandboxVirtualAccounts).values({
    accountNumber: String(9_000_000_000 + (seq += 1)),
    reference,
    amount,
    accountName: 'Tola Stores / Oya Money',
    status: 'paid',
    expiresAt: new Date(Date.now() + 60_000),
    paidAt: new Date(),
  });
  return { providerReference: reference, sender: senderOf(sender) };
}

describe('the sandbox’s refunds in its own records', () => {
  it('puts a debit’s refund back on the debited account, and pays a transfer’s sender', async () => {
    const { database, provider } = await sandbox();
    const debit = await debitedAccount(70_000);
    const debitedBalance = await sandboxBalanceOf(database, 'links_by_test_transfer');
    await provider.refunds.refund({
      reference: ours('rfd'),
      providerReference: debit,
      channel: 'debit',
      amount: 20_000,
      sender: null,
      reason: null,
      createdAt: new Date(),
    });
    expect(await sandboxBalanceOf(database, 'links_by_test_transfer')).toBe(
      debitedBalance + 20_000,
    );

    const before = await sandboxBalanceOf(database, 'links_by_auth_params');
    const transfer = await receivedTransfer(45_000);
    await provider.refunds.refund({
      reference: ours('rfd'),
      providerReference: transfer.providerReference,
      channel: 'transfer',
      amount: 45_000,
      sender: transfer.sender,
      reason: null,
      createdAt: new Date(),
    });
    expect(await sandboxBalanceOf(database, 'links_by_auth_params')).toBe(before + 45_000);
  });

  it('gives back once for a repeated reference, one line of the settlement report', async () => {
    const { provider } = await sandbox();
    const charge = await chargedCard(100_000);
    const refund = {
      reference: ours('rfd'),
      providerReference: charge,
      channel: 'card' as const,
      amount: 100_000,
      sender: null,
      reason: 'Order cancelled',
      createdAt: new Date(),
    };
    const first = await provider.refunds.refund(refund);
    expect(first).toMatchObject({ kind: 'processed' });
    expect(await provider.refunds.refund(refund)).toEqual(first);
    expect(await provider.refunds.requeryRefund(refund)).toEqual(first);
    const lines = (await provider.settlement.settlementReport()).filter(
      (line) => line.channel === 'refund' && line.reference === refund.reference,
    );
    expect(lines).toEqual([
      { channel: 'refund', reference: refund.reference, amount: 100_000, givenBack: false },
    ]);
  });

  it('refuses a late refund whose reference a requery closed', async () => {
    const { provider } = await sandbox();
    const charge = await chargedCard(50_000);
    const never = ours('rfd');
    const asked = {
      reference: never,
      providerReference: charge,
      channel: 'card' as const,
      createdAt: new Date(),
    };
    expect(await provider.refunds.requeryRefund(asked)).toMatchObject({
      kind: 'failed',
      reason: 'expired',
    });
    expect(
      await provider.refunds.refund({
        reference: never,
        providerReference: charge,
        channel: 'card',
        amount: 10_000,
        sender: null,
        reason: null,
        createdAt: new Date(),
      }),
    ).toMatchObject({ kind: 'failed' });
  });

  it('refuses a transfer’s refund to a sender that is no test account', async () => {
    const { provider } = await sandbox();
    const transfer = await receivedTransfer(10_000);
    expect(
      await provider.refunds.refund({
        reference: ours('rfd'),
        providerReference: transfer.providerReference,
        channel: 'transfer',
        amount: 10_000,
        sender: { ...transfer.sender, accountNumber: '0000000000' },
        reason: null,
        createdAt: new Date(),
      }),
    ).toMatchObject({ kind: 'failed', reason: 'account_not_found' });
  });

  it(
    'gives back at most what a charge took when its refunds come at once',
    { tags: ['postgres'] },
    async () => {
      const { database, provider } = await sandbox();
      const charge = await chargedCard(100_000);

      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          provider.refunds.refund({
            reference: ours('rfd'),
            providerReference: charge,
            channel: 'card',
            amount: 30_000,
            sender: null,
            reason: null,
            createdAt: new Date(),
          }),
        ),
      );

      expect(answers.filter((a) => a.kind === 'processed')).toHaveLength(3);
      const processed = await database.db
        .select()
        .from(sandboxRefunds)
        .where(eq(sandboxRefunds.chargeReference, charge));
      expect(
        processed.filter((r) => r.outcome === 'processed').reduce((sum, r) => sum + r.amount, 0),
      ).toBe(90_000);
    },
  );
});
