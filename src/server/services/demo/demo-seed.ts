import { and, eq, isNull } from 'drizzle-orm';
import { ALL_CAPABILITIES_ON } from '../../../domain/capabilities';
import type { TCreateConsentRequestInput } from '../../../domain/schemas/merchant-api';
import { ZCreateConsentRequest } from '../../../domain/schemas/merchant-api';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { accountLinks, consents, merchants, payerAccounts, payers } from '../../db/schema';
import { SANDBOX_ACCOUNTS, SANDBOX_BANKS, SANDBOX_PEOPLE } from '../../sandbox/fixtures';
import { consentCreationScope, createConsent } from '../consents/consents';
import { DEMO_FORM, DEMO_FORM_ID, DEMO_FORM_VALUES } from './demo-form';
import { seedForm } from '../forms/forms';
import { findIdempotentResult } from '../idempotency';
import { keptBvn, keptBvnConsent } from '../identity/bvn';
import { normalisePhone } from '../identity/phone-codes';
import { createMerchantClient } from '../merchants/merchant-clients';
import { consentPageUrl } from '../page-urls';

export const DEMO_MERCHANT_ID = 'mer_demo';
export const DEMO_CLIENT_ID = 'cli_demo';
/** The demo consent on which a payer links an account and then pays from it (README step 4). */
export const DEMO_LINKED_ACCOUNT_LABEL = 'a fee and future payments from a linked account';
const DEMO_VALIDITY_MS = 365 * 24 * 60 * 60 * 1000;

function monthlyDueDates(from: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1 + i, 1, 9));
    return d.toISOString();
  });
}

function demoConsents(
  now: Date,
): Array<{ key: string; label: string; body: TCreateConsentRequestInput }> {
  const expiresAt = new Date(now.getTime() + DEMO_VALIDITY_MS).toISOString();
  const monthly = (count: number, amount: number, narration: string) =>
    monthlyDueDates(now, count).map((dueDate) => ({
      type: 'future' as const,
      amount,
      amountType: 'fixed' as const,
      narration,
      frequency: 'monthly' as const,
      interval: 1,
      dueDate,
    }));
  const membership = monthly(6, 1_500_000, 'Gym membership');
  return [
    {
      key: 'demo:immediate',
      label: 'immediate payment only',
      body: {
        expiresAt,
        payments: [{ type: 'immediate', amount: 2_500_000, narration: 'Order #1042 groceries' }],
      },
    },
    {
      key: 'demo:recurring',
      label: 'recurring future payments',
      body: { expiresAt, payments: membership, requirements: { requiresAuth: true } },
    },
    {
      key: 'demo:data-sharing',
      label: 'data sharing only',
      body: {
        expiresAt,
        dataSharing: { bvnData: true, ninData: true, userImages: true, bankAccounts: true },
        requirements: { requiresAuth: true },
      },
    },
    {
      key: 'demo:everything',
      label: 'everything, with a form and a representative',
      body: {
        expiresAt,
        payments: [
          { type: 'immediate', amount: 500_000, narration: 'Registration fee' },
          ...membership.slice(0, 3),
          {
            type: 'future',
            amount: 2_000_000,
            amountType: 'variable',
            narration: 'Equipment deposit',
            dueDate: monthlyDueDates(now, 2)[1],
          },
        ],
        dataSharing: { bvnData: ['fullName', 'dateOfBirth'], ninData: true, bankAccounts: true },
        formId: DEMO_FORM_ID,
        requirements: { requiresAuth: true, requiresAccount: true },
        actOnBehalfOf: {
          role: { name: 'Membership Officer' },
          fullName: 'Chidinma Okafor',
          name: 'Chidinma',
          image: null,
          location: 'Lekki Phase 1, Lagos',
        },
      },
    },
    {
      // README "Try it by hand" step 4: an account linked in the Future Payments step, then the
      // fee debited from it at the grant. Signed in only: whoever opens the URL links and pays
      // with their own accounts, each proven by its bank (docs/accounts.md "Ownership"). A debit
      // that fails grants nothing, so the consent stays open for the next try.
      key: 'demo:linked-account',
      label: DEMO_LINKED_ACCOUNT_LABEL,
      body: {
        expiresAt,
        payments: [
          { type: 'immediate', amount: 1_000_000, narration: 'Personal training: first session' },
          ...monthly(3, 1_000_000, 'Personal training'),
        ],
        requirements: { requiresAuth: true, requiresAccount: true },
      },
    },
  ];
}

/**
 * Seeds the demo merchant and its demo consents, once: later starts find them by their
 * idempotency keys and only print their URLs.
 */
export async function seedDemo(db: TDb, config: TConfig, now = new Date()) {
  const [existing] = await db.select().from(merchants).where(eq(merchants.id, DEMO_MERCHANT_ID));
  if (!existing) {
    await createMerchantClient(db, {
      merchantId: DEMO_MERCHANT_ID,
      clientId: DEMO_CLIENT_ID,
      name: 'Lagos Fitness Club',
      image: '/demo/merchant-logo.svg',
      tag: 'lagosfitness',
      colours: { primaryColour: '#FE7048' },
    });
  }
  // The form the "everything" consent asks for, there before the consent is (docs/forms.md).
  await seedForm(db, DEMO_FORM_ID, DEMO_FORM, {
    clientId: DEMO_CLIENT_ID,
    merchantId: DEMO_MERCHANT_ID,
  });
  const lines: Array<{ label: string; url: string; consentId: string }> = [];
  for (const demo of demoConsents(now)) {
    // Seeded before: its dates were computed from that start's clock, so its body differs
    // from today's, and the key's first answer is what names it.
    const seeded = await findIdempotentResult<{ consentId: string }>(
      db,
      consentCreationScope(DEMO_CLIENT_ID),
      demo.key,
    );
    const { consentId } =
      seeded ??
      (await createConsent(db, ZCreateConsentRequest.parse(demo.body), {
        clientId: DEMO_CLIENT_ID,
        merchantId: DEMO_MERCHANT_ID,
        idempotencyKey: demo.key,
        now,
        // Seeded only where nothing moves real money (serve.ts): the sandbox serves them all.
        capabilities: ALL_CAPABILITIES_ON,
      }));
    if (demo.body.formId === DEMO_FORM_ID) {
      await db
        .update(consents)
        .set({ formTemplateValues: DEMO_FORM_VALUES })
        .where(and(eq(consents.id, consentId), isNull(consents.formTemplateValues)));
    }
    lines.push({
      label: demo.label,
      consentId,
      url: consentPageUrl(config.publicUrl, consentId, DEMO_CLIENT_ID),
    });
  }
  await seedDemoPayer(db, now);
  return lines;
}

/** The demo payer a person signs in as (README "Try it by hand"): a phone code, then a passkey. */
export const DEMO_PAYER = {
  id: 'usr_demo_payer',
  phone: '08030000001',
  fullName: 'Adaeze Okafor',
  /** Linked already, so the demo's payments can be paid with OneTap. */
  account: SANDBOX_ACCOUNTS.find((a) => a.accountNumber === '0123456785'),
} as const;

/**
 * Seeds the demo payer with one linked account (an active mandate, as a test transfer leaves
 * it), once. The account is a sandbox bank's, so its debits move the sandbox balance only.
 */
async function seedDemoPayer(db: TDb, now: Date) {
  const account = DEMO_PAYER.account;
  const bank = SANDBOX_BANKS.find((b) => b.institutionCode === account?.institutionCode);
  if (!account || !bank) throw new Error('The demo payer has no sandbox account');
  // Her BVN is verified, and her account held under it (docs/identity.md "The BVN"), so OneTap
  // debits it as README "Try it by hand" says.
  const bvn = await keptBvn(db, account.bvn);
  // What the sandbox registry gives with her code: her name and birth date, and the accounts
  // under her BVN, which the linking panel lists.
  const holder = SANDBOX_PEOPLE.find((person) => person.bvn === account.bvn);
  if (!holder) throw new Error('The demo payer is no sandbox person');
  const consent = await keptBvnConsent(
    db,
    { fullName: holder.fullName, dateOfBirth: holder.dateOfBirth },
    SANDBOX_ACCOUNTS.filter((a) => a.bvn === account.bvn).map(
      ({ institutionCode, accountNumber }) => ({ institutionCode, accountNumber }),
    ),
  );
  await db.transaction(async (tx) => {
    // A demo payer seeded before BVNs were checked gets hers now.
    await tx
      .update(payers)
      .set({ ...bvn, bvnVerifiedAt: now })
      .where(and(eq(payers.id, DEMO_PAYER.id), isNull(payers.bvnHash)));
    // One seeded before the registry's answers were kept gets them, under her BVN only.
    await tx
      .update(payers)
      .set(consent)
      .where(
        and(
          eq(payers.id, DEMO_PAYER.id),
          eq(payers.bvnHash, bvn.bvnHash),
          isNull(payers.bvnHolderSealed),
        ),
      );
    await tx
      .update(payerAccounts)
      .set({ bvnHash: bvn.bvnHash })
      .where(and(eq(payerAccounts.payerId, DEMO_PAYER.id), isNull(payerAccounts.bvnHash)));
    await tx
      .update(accountLinks)
      .set({ bvnHash: bvn.bvnHash })
      .where(and(eq(accountLinks.payerId, DEMO_PAYER.id), isNull(accountLinks.bvnHash)));
  });
  await db.transaction(async (tx) => {
    const [payer] = await tx
      .insert(payers)
      .values({
        id: DEMO_PAYER.id,
        phoneNumber: normalisePhone(DEMO_PAYER.phone),
        fullName: DEMO_PAYER.fullName,
        // Linked before any passkey exists: the passkey a person first makes for the demo payer
        // signs at once, as a new payer's would (docs/identity.md "When a passkey is trusted").
        trustsFirstPasskey: true,
        ...bvn,
        bvnVerifiedAt: now,
        ...consent,
      })
      .onConflictDoNothing()
      .returning({ id: payers.id });
    if (!payer) return;
    const accountId = 'acc_demo_payer_0001';
    await tx.insert(payerAccounts).values({
      id: accountId,
      payerId: payer.id,
      institutionCode: account.institutionCode,
      accountNumber: account.accountNumber,
      accountName: account.accountName,
      bankName: bank.name,
      bvnHash: bvn.bvnHash,
    });
    await tx.insert(accountLinks).values({
      id: 'alk_demo_payer_0001',
      payerId: payer.id,
      accountId,
      route: 'test_transfer',
      state: 'active',
      // A sandbox bank's account: the sandbox debits it.
      debitProvider: 'sandbox',
      mandateSetUpBy: 'sandbox',
      expiresAt: now,
      activatedAt: now,
      bvnHash: bvn.bvnHash,
    });
  });
}
