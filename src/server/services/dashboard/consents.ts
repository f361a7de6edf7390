import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod/mini';
import { futurePaymentsCancelledMessage } from '../../../domain/dashboard-roles';
import { upcomingDebits } from '../../../domain/payer-consents';
import { PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import {
  ZFuturePaymentsCancellation,
  type TDashboardConsent,
  type TFuturePaymentsCancellation,
} from '../../../domain/schemas/dashboard-consents';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { consentEvents, consents, payers } from '../../db/schema';
import {
  sendQueuedSms,
  type TSmsJobs,
  openSmsOutbox,
  SMS_ASKED_BY_NO_CALL,
} from '../../jobs/sms-job';
import { merchantConsentRecord } from '../consents/consent-records';
import { recordConsentChange } from '../consents/consent-changes';
import { readMerchantConsent } from '../consents/consents';
import { cancelFuturePayments } from '../consents/payer-consents';
import { stopOwnMandatesOf } from '../linking/own-mandates';
import { recordAudit, type TActor } from './audit';

/*
 * The dashboard's consents and mandates (docs/dashboard.md "Consents"): a consent as the merchant
 * API reads it, with its grant record, the schedule of its future payments still owed, and the
 * staff's cancel of them. A cancel is one transaction: the payer's revocation's own statements
 * (cancelFuturePayments), the consent's audit row and the merchant's webhook event
 * (recordConsentChange), the dashboard's audit row, and the payer's SMS in the outbox.
 */

const CANCELLED = 'consent.future_payments_cancelled' as const;

/** What a cancel's audit row keeps that the dashboard shows. */
const ZCancelled = z.pick(ZFuturePaymentsCancellation, { reason: true, cancelledPaymentIds: true });

/** The staff's cancels of a consent's future payments, oldest first. */
async function cancellationsOf(db: TDb, consentId: string): Promise<TFuturePaymentsCancellation[]> {
  const rows = await db
    .select({ data: consentEvents.data, createdAt: consentEvents.createdAt })
    .from(consentEvents)
    .where(and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, CANCELLED)))
    .orderBy(asc(consentEvents.id));
  return rows.map((row) => ({ at: row.createdAt.toISOString(), ...ZCancelled.parse(row.data) }));
}

/** One of the merchant's consents with its record, schedule and cancels; another's is not found. */
export async function dashboardConsent(
  db: TDb,
  merchantId: string,
  consentId: string,
): Promise<Omit<TDashboardConsent, 'success'>> {
  const consent = await readMerchantConsent(db, merchantId, consentId);
  const [{ record, audit }, cancellations] = await Promise.all([
    merchantConsentRecord(db, merchantId, consentId),
    cancellationsOf(db, consentId),
  ]);
  return {
    consent,
    record,
    audit,
    schedule: upcomingDebits(consent, Number.POSITIVE_INFINITY),
    cancellations,
  };
}

/**
 * POST /api/dashboard/consents/{consentId}/cancel-future-payments. The consent's row is locked
 * while granted, so a payer's revocation and a second cancel wait for this one; whichever comes
 * second finds nothing pending and changes nothing (no event, no SMS). Either way the answer is
 * the consent as it then stands.
 */
export async function cancelFuturePaymentsFromDashboard(
  ctx: Pick<TAppContext, 'db' | 'config' | 'clock'> & { jobs: TSmsJobs },
  who: TActor,
  consentId: string,
  reason: string,
): Promise<Omit<TDashboardConsent, 'success'>> {
  const { db, config, clock } = ctx;
  // Another merchant's consent, or none, is not found before anything is written.
  const before = await readMerchantConsent(db, who.merchantId, consentId);
  const now = clock.now();
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  const sms = await db.transaction(async (tx) => {
    const [granted] = await tx
      .select({ clientId: consents.clientId, grantedBy: consents.grantedBy })
      .from(consents)
      .where(
        and(
          eq(consents.id, consentId),
          eq(consents.merchantId, who.merchantId),
          eq(consents.status, 'granted'),
        ),
      )
      .for('update');
    if (!granted) return null;
    const cancelled = await cancelFuturePayments(tx, consentId, 'future_payments_cancelled', now);
    if (cancelled.paymentIds.length === 0) return null;
    await stopOwnMandatesOf(ctx.jobs, tx, cancelled.paymentIds, now);
    await recordConsentChange(ctx.jobs, tx, {
      clientId: granted.clientId,
      consentId,
      type: CANCELLED,
      actor: `staff:${who.staffId ?? 'operator'}`,
      data: {
        consentId,
        cancelledAt: now.toISOString(),
        cancelledPaymentIds: cancelled.paymentIds,
        reason,
      },
      now,
    });
    await recordAudit(
      tx,
      who,
      {
        action: CANCELLED,
        target: consentId,
        data: {
          reason,
          cancelledPaymentIds: cancelled.paymentIds,
          cancelledCollectionIds: cancelled.collectionIds,
        },
      },
      now,
    );
    const [payer] = granted.grantedBy
      ? await tx
          .select({ phoneNumber: payers.phoneNumber })
          .from(payers)
          .where(eq(payers.id, granted.grantedBy))
      : [];
    if (!payer) return null;
    // The change is these payments' cancel: queued again, it is the same job, one SMS.
    const change = `${CANCELLED}:${consentId}:${[...cancelled.paymentIds].sort().join(',')}`;
    return outbox.queue(tx, change, {
      phoneNumber: payer.phoneNumber,
      body: futurePaymentsCancelledMessage({
        productName: config.productName,
        merchantName: before.counterparty.name,
        count: cancelled.paymentIds.length,
        reason,
        consentsUrl: new URL(PAYER_CONSENTS_PATH, config.publicUrl).toString(),
      }),
    });
  });
  await sendQueuedSms(ctx.jobs, [sms]);
  return dashboardConsent(db, who.merchantId, consentId);
}
