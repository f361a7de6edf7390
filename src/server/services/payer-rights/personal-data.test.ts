// What every column holds of a payer (personal-data.ts), read from the schema itself: a column
// added without a rule fails here, and after an erasure the payer's name, number, BVN and its
// hash are found in no column but those a legal hold keeps (or the sandbox's simulated banks).
import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema';
import { accountOwnerLookups, payers, paymentComplaints } from '../../db/schema';
import type { TDb } from '../../db/database';
import { ownAccount, ownPerson } from '../../testing/bvn';
import {
  latestCode,
  loginWithCode,
  oneTapGrant,
  openDiscovery,
  payerWithPasskey,
  sendCode,
} from '../../testing/identity';
import { askErasure, grantedWithSharing } from '../../testing/payer-data';
import { consentWithPayment, linkByTestTransfer } from '../../testing/payments';
import { createTestClient, useTestApp, testClock } from '../../testing/test-app';
import { SAMPLE_FORM_INPUT } from '../../../domain/test-support/form-fixtures';
import { ERASURE_JOB } from './erasure';
import { EXPORT_JOB } from './requests';
import { keptAfterErasure, PERSONAL_DATA_RULES } from './personal-data';

const TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => getTableConfig(table));

describe('the rules of personal data', () => {
  it('rule every column of every table in the schema', () => {
    const unruled = TABLES.flatMap((table) =>
      table.columns
        .filter((column) => PERSONAL_DATA_RULES[table.name]?.[column.name] === undefined)
        .map((column) => `${table.name}.${column.name}`),
    );
    expect(unruled, 'columns without a rule in personal-data.ts').toEqual([]);
  });

  it('name no column the schema does not have', () => {
    const known = new Set(
      TABLES.flatMap((table) => table.columns.map((column) => `${table.name}.${column.name}`)),
    );
    const stale = Object.entries(PERSONAL_DATA_RULES).flatMap(([table, columns]) =>
      Object.keys(columns)
        .map((column) => `${table}.${column}`)
        .filter((name) => !known.has(name)),
    );
    expect(stale).toEqual([]);
  });
});

/** Each `table.column` of the schema whose value, as text, holds `needle`. */
async function columnsHolding(db: TDb, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of TABLES) {
    const checks = table.columns.map(
      (column) =>
        sql`bool_or(${sql.identifier(column.name)}::text LIKE ${`%${needle}%`}) AS ${sql.identifier(column.name)}`,
    );
    const result = (await db.execute(
      sql`SELECT ${sql.join(checks, sql`, `)} FROM ${sql.identifier(table.name)}`,
    )) as { rows: Array<Record<string, boolean | null>> };
    for (const [column, holds] of Object.entries(result.rows[0] ?? {})) {
      if (holds) found.push(`${table.name}.${column}`);
    }
  }
  return found;
}

const notKept = (columns: string[]) =>
  columns.filter((name) => {
    const [table = '', column = ''] = name.split('.');
    const rule = PERSONAL_DATA_RULES[table]?.[column];
    return rule === undefined || !keptAfterErasure(rule);
  });

const clock = testClock('2031-06-02T09:00:00Z');
const ctx = useTestApp({ clock, webhookDelivery: 'manual', payerRights: 'manual' });

/**
 * A merchant's form on a new consent, which `payer` signs in for (by code, naming the consent) and
 * begins with `name` as their full name; the consent is never granted.
 */
async function formBegunNeverGranted(payer: { phone: string }, name: string): Promise<void> {
  const client = await createTestClient(ctx.database);
  const asMerchant = { authorization: client.authorization };
  const form = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/forms',
    headers: asMerchant,
    payload: SAMPLE_FORM_INPUT,
  });
  expect(form.statusCode, form.body).toBe(201);
  const { formId } = form.json<{ formId: string }>();
  const consent = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: asMerchant,
    payload: { formId },
  });
  expect(consent.statusCode, consent.body).toBe(201);
  const { consentId } = consent.json<{ consentId: string }>();
  const discoveryId = await openDiscovery(ctx.app, { clientId: client.clientId, consentId });
  expect((await sendCode(ctx.app, payer.phone)).statusCode).toBe(200);
  const signedIn = await loginWithCode(ctx.app, {
    phone: payer.phone,
    code: await latestCode(ctx.app, payer.phone),
    discoveryId,
    clientId: client.clientId,
  });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: '/api/form/sections/about',
    payload: { consentId, clientId: client.clientId, answers: { fullName: name } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('an erasure', () => {
  it('leaves the payer’s data in no column but those a legal hold keeps', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const person = await ownPerson(ctx.app, payer.token);
    await grantedWithSharing({ ...ctx, payer, accountId });
    // A payment the payer made from their account, given back in part, and complained of.
    const paid = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const granted = await oneTapGrant(ctx.app, payer, paid.consentId, accountId);
    expect(granted.statusCode, granted.body).toBe(200);
    const refunded = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${paid.paymentId}/refunds`,
      headers: { authorization: paid.client.authorization },
      payload: { amount: 10_000 },
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    const complaintWords = 'My sister Ngozi Eze was charged from my salary account twice';
    // Sent with an Idempotency-Key: its first answer, which repeats the words, is stored.
    const complained = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/complaints',
      headers: { ...payer.headers, 'idempotency-key': 'complaint-1' },
      payload: {
        paymentId: paid.paymentId,
        category: 'charged_twice',
        description: complaintWords,
      },
    });
    expect(complained.statusCode, complained.body).toBe(201);
    // A BVN registry's answer about the payer's account that named no owner (Mono's; the
    // sandbox's bank answers itself): kept for its days, though it names no BVN of theirs.
    const own = await ownAccount(ctx.app, payer.token, 'links_by_test_transfer');
    await ctx.database.db.insert(accountOwnerLookups).values({
      institutionCode: own.institutionCode,
      accountNumber: own.accountNumber,
      ownerBvnHash: null,
      lookedUpAt: clock.now(),
    });
    // A merchant's form the payer signed in for and began, its consent never granted.
    const formAnswer = 'Chidinma Adaobi Nwosu';
    await formBegunNeverGranted(payer, formAnswer);
    // A copy asked for first: its sealed file is erased with the rest.
    const exported = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/data-exports',
      headers: payer.headers,
    });
    expect(exported.statusCode).toBe(202);
    await ctx.context.jobs.drain([EXPORT_JOB]);

    const [before] = await ctx.database.db.select().from(payers).where(eq(payers.id, payer.userId));
    const traces = {
      phone: before!.phoneNumber,
      name: before!.fullName,
      bvn: person.bvn,
      bvnHash: before!.bvnHash!,
      complaint: complaintWords,
      formAnswer,
    };
    // Found before, where it is personal data: the scan sees what it looks for.
    expect(notKept(await columnsHolding(ctx.database.db, traces.phone))).toContain(
      'payers.phone_number',
    );
    expect(notKept(await columnsHolding(ctx.database.db, traces.bvnHash))).toContain(
      'payers.bvn_hash',
    );

    const erased = await askErasure(ctx.app, payer);
    expect(erased.statusCode, erased.body).toBe(202);
    expect(await ctx.context.jobs.drain([ERASURE_JOB])).toBe(1);

    for (const [what, value] of Object.entries(traces)) {
      expect(notKept(await columnsHolding(ctx.database.db, value)), what).toEqual([]);
    }
    // The payer's own calls' stored answers go too: they do not wait to expire.
    expect(await columnsHolding(ctx.database.db, complaintWords)).not.toContain(
      'idempotency_keys.response',
    );
    // No lookup of the payer's account is kept, whatever owner it named.
    const lookups = await ctx.database.db
      .select()
      .from(accountOwnerLookups)
      .where(eq(accountOwnerLookups.accountNumber, own.accountNumber));
    expect(lookups).toEqual([]);
    // The complaint stays with the payment's records, its words gone.
    const [complaint] = await ctx.database.db
      .select()
      .from(paymentComplaints)
      .where(eq(paymentComplaints.paymentId, paid.paymentId));
    expect(complaint).toMatchObject({ category: 'charged_twice', description: '' });
  });
});
