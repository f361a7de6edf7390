// What bench/processes.ts checks after one of two processes was killed mid-burst: read from the
// database the processes share (and from the webhooks the merchant received), that every payment
// of the burst was paid exactly once, booked once and told once, and that the survivor took up
// what the dead process left.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { payerApp, pay, type TPayment } from './processes-mix';

const OUTBOX_KINDS = ['webhooks.deliver', 'sms.send'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type TKillReport = { lines: string[]; problems: string[] };

export function killChecks(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const rows = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await pool.query<T>(text, values)).rows;
  const count = async (text: string, values: unknown[] = []) =>
    Number((await rows<{ n: string }>(text, values))[0]?.n ?? 0);

  /**
   * Of `payments`, those not done: not executed, or a grant whose consent is not granted (the
   * debit is booked before the grant's own transaction: a kill between them, or a debit's lost
   * answer that the reconciler books, leaves the payment executed and the consent pending until
   * the payer grants again).
   */
  const unfinished = async (payments: TPayment[]) =>
    new Set(
      (
        await rows<{ id: string }>(
          `SELECT p.id FROM payments p JOIN consents c ON c.id = p.consent_id
           WHERE p.id = ANY($1) AND (p.status <> 'executed' OR p.id = ANY($2) AND c.status <> 'granted')`,
          [
            payments.map((p) => p.paymentId),
            payments.filter((p) => p.kind === 'grant').map((p) => p.paymentId),
          ],
        )
      ).map((row) => row.id),
    );

  /**
   * Whether the deployment still owes the payment an answer: a charge or debit whose answer was
   * lost (the reconciler asks about it), a transfer the bank holds whose notice is owed.
   */
  const inFlight = async (paymentId: string) =>
    (await count(
      `SELECT count(*) AS n FROM payment_attempts a WHERE a.payment_id = $1 AND (a.stage = 'charging'
         OR EXISTS (SELECT 1 FROM sandbox_transfers t WHERE t.reference = a.id AND t.outcome = 'received'))`,
      [paymentId],
    )) > 0;

  return {
    close: () => pool.end(),

    /** The ids of the jobs running now: at a worker's kill, what it may have held. */
    async running(): Promise<string[]> {
      const active = await rows<{ id: string }>(`SELECT id FROM pgboss.job WHERE state = 'active'`);
      return active.map((row) => row.id);
    },

    /**
     * Of the jobs `running` at the kill, those the dead worker held (started again after it), and
     * how long after the kill the last of them was started by another worker.
     */
    async takenUp(ids: string[], killedAt: Date): Promise<{ held: number; latestMs: number }> {
      const again = await rows<{ started_on: Date }>(
        `SELECT started_on FROM pgboss.job WHERE id = ANY($1::uuid[]) AND started_on > $2`,
        [ids, killedAt],
      );
      const after = again.map((row) => row.started_on.getTime() - killedAt.getTime());
      return { held: again.length, latestMs: Math.max(0, ...after) };
    },

    /** Waits until no webhook delivery is pending (what a burst left to send). */
    async drained(limitMs = 120_000): Promise<void> {
      const deadline = Date.now() + limitMs;
      while (await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)) {
        if (Date.now() > deadline) throw new Error('webhook deliveries still pending');
        await sleep(200);
      }
    },

    /**
     * The payers of payments the kill left unfinished pay (or grant) again through nginx (the
     * survivor), once the deployment owes them no answer; until every one is done or `limitMs`
     * passed. Answers how many were done by their payer's second call.
     */
    async payAgain(base: string, payments: TPayment[], limitMs: number): Promise<number> {
      const deadline = Date.now() + limitMs;
      let again = 0;
      for (;;) {
        const left = await unfinished(payments);
        if (left.size === 0 || Date.now() > deadline) return again;
        for (const payment of payments.filter((p) => left.has(p.paymentId))) {
          if (await inFlight(payment.paymentId)) continue;
          const failure = await pay(payerApp(base), payment.kind, payment, payment.payer);
          if (!failure) again += 1;
        }
        await sleep(1_000);
      }
    },

    /**
     * Waits until the survivor sent everything: no job of an outbox kind waiting, retrying or
     * active, no delivery pending, every merchant event received. Answers how long it took.
     */
    async settled(received: { id: string }[], limitMs: number): Promise<void> {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const jobs = await count(
          `SELECT count(*) AS n FROM pgboss.job WHERE name = ANY($1) AND state IN ('created', 'retry', 'active')`,
          [OUTBOX_KINDS],
        );
        const pending = await count(
          `SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`,
        );
        const ids = new Set(received.map((hook) => hook.id));
        const events = await rows<{ public_id: string }>(`SELECT public_id FROM merchant_events`);
        const unheard = events.filter((event) => !ids.has(event.public_id)).length;
        if (jobs + pending + unheard === 0) return;
        if (Date.now() > deadline) {
          throw new Error(
            `not settled: ${jobs} outbox jobs, ${pending} deliveries pending, ${unheard} events not received`,
          );
        }
        await sleep(1_000);
      }
    },

    /** Every check of the kill test, as lines to print and the problems among them. */
    async report(
      payments: TPayment[],
      received: { id: string; type: string }[],
      killedAt: Date,
    ): Promise<TKillReport> {
      const lines: string[] = [];
      const problems: string[] = [];
      const check = (ok: boolean, line: string) => {
        lines.push(`${ok ? '  ok  ' : '  FAIL'} ${line}`);
        if (!ok) problems.push(line);
      };
      const ids = payments.map((p) => p.paymentId).filter(Boolean);
      const grants = payments.filter((p) => p.kind === 'grant').map((p) => p.consentId);

      check(ids.length === payments.length, `consents made: ${ids.length} of ${payments.length}`);
      const executed = await count(
        `SELECT count(*) AS n FROM payments WHERE id = ANY($1) AND status = 'executed'`,
        [ids],
      );
      check(executed === payments.length, `payments executed: ${executed} of ${payments.length}`);

      // Taken at the provider: a card charge or a debit kept, a transfer credited; once each.
      const taken = await rows<{ payment_id: string; taken: string; given_back: string }>(
        `SELECT a.payment_id,
                count(*) FILTER (WHERE c.status = 'succeeded' AND c.given_back_at IS NULL
                                    OR d.outcome = 'succeeded' AND d.reversed_at IS NULL
                                    OR t.outcome = 'credited') AS taken,
                count(*) FILTER (WHERE c.given_back_at IS NOT NULL OR d.reversed_at IS NOT NULL
                                    OR t.outcome = 'returned_already_paid') AS given_back
         FROM payment_attempts a
         LEFT JOIN sandbox_card_charges c ON c.reference = a.id
         LEFT JOIN sandbox_debits d ON d.reference = a.id
         LEFT JOIN sandbox_transfers t ON t.reference = a.id
         WHERE a.payment_id = ANY($1) GROUP BY a.payment_id`,
        [ids],
      );
      const once = taken.filter((row) => Number(row.taken) === 1).length;
      const givenBack = taken.reduce((sum, row) => sum + Number(row.given_back), 0);
      check(
        once === payments.length,
        `taken at the provider exactly once: ${once} of ${payments.length} (a second take given back: ${givenBack})`,
      );

      const ledger = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ledger-check.ts'], {
        env: { ...process.env, DATABASE_URL: databaseUrl },
        encoding: 'utf8',
      });
      const ledgerLines = ledger.stdout.trim().split('\n');
      check(ledger.status === 0, `npm run ledger:check: ${ledgerLines.join(' ')}`);

      const completed = await rows<{ payment_id: string; events: string }>(
        `SELECT data->>'paymentId' AS payment_id, count(*) AS events FROM merchant_events
         WHERE type = 'payment.completed' AND data->>'paymentId' = ANY($1) GROUP BY 1`,
        [ids],
      );
      const toldOnce = completed.filter((row) => Number(row.events) === 1).length;
      check(
        toldOnce === payments.length && completed.length === toldOnce,
        `payment.completed events, one per payment: ${toldOnce} of ${payments.length}`,
      );
      const granted = await rows<{ consent_id: string; events: string }>(
        `SELECT consent_id, count(*) AS events FROM merchant_events
         WHERE type = 'consent.granted' AND consent_id = ANY($1) GROUP BY 1`,
        [grants],
      );
      const grantedOnce = granted.filter((row) => Number(row.events) === 1).length;
      check(
        grantedOnce === grants.length && granted.length === grantedOnce,
        `consent.granted events, one per grant: ${grantedOnce} of ${grants.length}`,
      );

      const events = await rows<{ public_id: string }>(`SELECT public_id FROM merchant_events`);
      const known = new Set(events.map((event) => event.public_id));
      const heard = new Set(received.map((hook) => hook.id));
      const unheard = events.filter((event) => !heard.has(event.public_id)).length;
      const strangers = [...heard].filter((id) => !known.has(id)).length;
      check(
        unheard === 0 && strangers === 0,
        `webhooks: ${events.length} events, each received (${received.length} receipts, ${received.length - heard.size} a repeat of an id already received; ${unheard} never received, ${strangers} ids of no event)`,
      );

      const backlog = await rows<{ state: string; n: string }>(
        `SELECT state::text, count(*) AS n FROM pgboss.job WHERE name = ANY($1) GROUP BY 1`,
        [OUTBOX_KINDS],
      );
      const outboxLeft = backlog
        .filter((row) => ['created', 'retry', 'active'].includes(row.state))
        .reduce((sum, row) => sum + Number(row.n), 0);
      const failed = await count(
        `SELECT count(*) AS n FROM pgboss.job WHERE state = 'failed' OR name LIKE '%.dead'`,
      );
      const overdue = await count(
        `SELECT count(*) AS n FROM pgboss.job WHERE state = 'active'
           AND started_on + make_interval(secs => expire_seconds + 120) < now()`,
      );
      check(
        outboxLeft === 0 && failed === 0 && overdue === 0,
        `jobs: ${outboxLeft} of ${OUTBOX_KINDS.join(', ')} waiting, retrying or active; ${failed} failed or dead (any kind); ${overdue} active past their expiry`,
      );
      // What is left, to say why.
      const left = await rows<{
        name: string;
        state: string;
        tries: number;
        n: string;
        next: string;
        output: string;
      }>(
        `SELECT name, state::text, retry_count AS tries, count(*) AS n,
                round(extract(epoch FROM min(start_after) - now())) AS next, max(output::text) AS output
         FROM pgboss.job WHERE (name = ANY($1) AND state IN ('created', 'retry', 'active'))
           OR state = 'failed' OR name LIKE '%.dead' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [OUTBOX_KINDS],
      );
      for (const row of left) {
        lines.push(
          `         ${row.n} ${row.name} ${row.state} after ${row.tries} retries, next in ${row.next} s: ${(row.output ?? '').slice(0, 160)}`,
        );
      }

      // What the dead process left that the survivor finished: anything finished after the kill.
      const jobsTakenUp = await rows<{ name: string; n: string }>(
        `SELECT name, count(*) AS n FROM pgboss.job
         WHERE created_on < $1 AND completed_on >= $1 AND state = 'completed' GROUP BY 1 ORDER BY 1`,
        [killedAt],
      );
      const deliveriesTakenUp = await count(
        `SELECT count(*) AS n FROM webhook_deliveries d JOIN merchant_events e ON e.id = d.event_id
         WHERE e.created_at < $1 AND d.delivered_at >= $1`,
        [killedAt],
      );
      const attemptsTakenUp = await count(
        `SELECT count(*) AS n FROM payment_attempts
         WHERE payment_id = ANY($1) AND created_at < $2 AND completed_at >= $2`,
        [ids, killedAt],
      );
      const jobsLine = jobsTakenUp.map((row) => `${row.name} ${row.n}`).join(', ') || 'none';
      lines.push(
        `       survivor: finished ${jobsTakenUp.reduce((sum, row) => sum + Number(row.n), 0)} jobs queued before the kill (${jobsLine}), delivered ${deliveriesTakenUp} webhooks of events written before it, completed ${attemptsTakenUp} attempts begun before it`,
      );
      return { lines, problems };
    },
  };
}
