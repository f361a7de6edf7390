// Webhook retries (docs/webhooks.md "Retries"): one policy, the delivery's own schedule, carried
// by the job engine alone. A failed try writes its next time and queues the job for that time in
// one transaction; a delivery that ends queues the one of its consent waiting behind it. Nothing
// here calls the deliverer: only the engine's 'webhooks.deliver' jobs send.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { JOBS_SCHEMA } from '../jobs/engine';
import { WEBHOOK_DELIVER_JOB, WEBHOOK_FIRST_RETRY_MS } from '../services/merchants/webhooks';
import { testHostResolver } from '../testing/host-resolver';
import { consentWithPayment, payByCard } from '../testing/payments';
import { useTestApp, testClock } from '../testing/test-app';
import {
  grantPaidConsent,
  receiver,
  registerWebhook,
  type TReceived,
} from '../testing/webhook-receiver';

// Now, so that a job queued for the clock's "in 30 s" waits in the database's time too.
const clock = testClock(new Date());
const ctx = useTestApp({
  clock,
  webhookDelivery: 'manual',
  env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
  providers: { dns: testHostResolver() },
});

/** Both drivers answer raw SQL with `{ rows }`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const typeOf = (r: TReceived) => (JSON.parse(r.body) as { type: string }).type;

type TDelivery = { id: number; status: string; attempts: number; type: string; next: Date };

/** The consent's deliveries, oldest event first. */
async function deliveriesOf(consentId: string): Promise<TDelivery[]> {
  const result = await ctx.database.db.execute(sql`
    SELECT d.id, d.status, d.attempts, m.type, d.next_attempt_at AS next
    FROM webhook_deliveries d JOIN merchant_events m ON m.id = d.event_id
    WHERE d.consent_id = ${consentId} ORDER BY d.event_id`);
  return rowsOf<TDelivery>(result).map((d) => ({ ...d, next: new Date(d.next) }));
}

/** The delivery's jobs not yet run, with their start times. */
async function waitingJobs(deliveryId: number): Promise<Date[]> {
  const result = await ctx.database.db.execute(
    sql.raw(`SELECT start_after FROM ${JOBS_SCHEMA}.job
      WHERE name = '${WEBHOOK_DELIVER_JOB}' AND state IN ('created', 'retry')
        AND data->>'deliveryId' = '${deliveryId}'`),
  );
  return rowsOf<{ start_after: string | Date }>(result).map((r) => new Date(r.start_after));
}

/**
 * Runs the delivery jobs whose time has come on the test's clock, until none is left: the
 * database starts a job by its own time, so each job due by the clock is brought to it first.
 */
async function runJobs(): Promise<void> {
  for (;;) {
    await ctx.database.db.execute(
      sql.raw(`UPDATE ${JOBS_SCHEMA}.job SET start_after = now()
        WHERE name = '${WEBHOOK_DELIVER_JOB}' AND state IN ('created', 'retry')
          AND start_after > now() AND start_after <= '${clock.now().toISOString()}'`),
    );
    if ((await ctx.app.jobs.drain([WEBHOOK_DELIVER_JOB])) === 0) return;
  }
}

describe('webhook retries, as jobs', () => {
  it('queues the next try of a failed delivery for its time, in the try that failed', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await registerWebhook(ctx.app, consent.client.authorization, url);
    hook.answerWith(() => ({ status: 500 }));
    await payByCard(ctx.app, consent, 'declined');
    await runJobs();
    expect(hook.received.map(typeOf)).toEqual(['payment.failed']);
    const [failed] = await deliveriesOf(consent.consentId);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    // One job waits, for the time the delivery says: nothing else would try it again.
    expect(await waitingJobs(failed!.id)).toEqual([failed!.next]);
    expect(failed!.next.getTime() - clock.now().getTime()).toBe(WEBHOOK_FIRST_RETRY_MS);
    // Before its time nothing is sent.
    await runJobs();
    expect(hook.received).toHaveLength(1);

    hook.answerWith(() => ({ status: 200 }));
    clock.advance(WEBHOOK_FIRST_RETRY_MS);
    await runJobs();
    expect(hook.received.map(typeOf)).toEqual(['payment.failed', 'payment.failed']);
    expect(await deliveriesOf(consent.consentId)).toMatchObject([
      { status: 'delivered', attempts: 2 },
    ]);
    expect(await waitingJobs(failed!.id)).toEqual([]);
    await hook.close();
  });

  it('sends the event waiting behind an earlier one of its consent once that one is sent', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await registerWebhook(ctx.app, consent.client.authorization, url);
    hook.answerWith(() => ({ status: 503 }));
    await payByCard(ctx.app, consent);
    const granted = await grantPaidConsent(ctx.app, consent.consentId);
    expect(granted.statusCode).toBe(200);
    // Both jobs ran: the first event failed, the second waited behind it and was not tried.
    await runJobs();
    const [first, second] = await deliveriesOf(consent.consentId);
    expect([first?.type, second?.type]).toEqual(['payment.completed', 'consent.granted']);
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(second).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await waitingJobs(second!.id)).toEqual([]);

    hook.answerWith(() => ({ status: 200 }));
    clock.advance(WEBHOOK_FIRST_RETRY_MS);
    await runJobs();
    expect(hook.received.map(typeOf)).toEqual([
      'payment.completed',
      'payment.completed',
      'consent.granted',
    ]);
    expect((await deliveriesOf(consent.consentId)).map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
    ]);
    await hook.close();
  });
});
