import { and, eq } from 'drizzle-orm';
import type {
  TPaymentTerminalsResponse,
  TTerminalPushRequest,
  TTerminalPushResponse,
} from '../../../domain/schemas/card-terminal';
import type { TAppContext } from '../../context';
import { merchantTerminals, paymentAttempts } from '../../db/schema';
import type { TPushTerminalPort, TTerminalPushAnswer } from '../../providers/payments';
import { AppError } from '../../app-error';
import { runAttempt } from './attempts/runner';
import { newChargeToken } from './charge-owners';
import { loadPayable, type TPaymentAccess } from './payment-records';
import { isOff } from '../../providers/off';

/*
 * Paying an immediate payment at a merchant's certified terminal (Paystack Terminal's push
 * payment requests; docs/providers/paystack-terminal.md). The payer's card never reaches us:
 *
 *  1. the terminal is one of the payment's merchant's, and its provider says it is online and
 *     free (else TERMINAL_OFFLINE or TERMINAL_BUSY, and nothing is recorded);
 *  2. under the payment's lock the attempt is recorded 'charging' (method chip_card: one charge
 *     of a payment at a time) with the stream's in_progress event;
 *  3. outside any transaction the payment request is pushed with the attempt's id as our
 *     reference (the adapter finds a request of that reference before it makes one, so a push
 *     repeated never makes two); the provider's reference it answers is kept on the attempt. A
 *     push the provider refused (the request, or sending it to the terminal) fails the attempt at
 *     once: PAYMENT_FAILED, or TERMINAL_OFFLINE where the terminal could not be reached;
 *  4. the attempt waits, 'charging', for the provider's notice (provider-notices.ts) or the
 *     reconciler's requery (attempts/answers.ts): paid completes it with the ledger, refused at the
 *     terminal fails it TERMINAL_DECLINED, still waiting is asked again later, and called off
 *     (TERMINAL_TIMEOUT) once PUSHED_TERMINAL_EXPIRY_MS have passed, so the payment can be paid
 *     another way.
 *
 * A push whose answer was lost leaves the attempt charging too, with no provider reference: the
 * requery looks the request up by our reference. Nothing here charges a payment twice: a second
 * push while one waits is PAYMENT_IN_PROGRESS.
 */

type TPushContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** The pushed terminal, or TERMINAL_NOT_REGISTERED where this server's terminal is a reader. */
function pushedTerminal(ctx: Pick<TAppContext, 'providers'>): TPushTerminalPort {
  const { acquirer } = ctx.providers.payments;
  if (isOff(acquirer) || acquirer.kind !== 'push') throw new AppError('TERMINAL_NOT_REGISTERED');
  return acquirer;
}

/** The merchant's terminals at this server's terminal provider, by name. */
export async function merchantTerminalsOf(
  ctx: Pick<TAppContext, 'db' | 'providers'>,
  merchantId: string,
): Promise<Array<{ id: string; name: string }>> {
  const { acquirer } = ctx.providers.payments;
  if (isOff(acquirer) || acquirer.kind !== 'push') return [];
  return ctx.db
    .select({ id: merchantTerminals.id, name: merchantTerminals.name })
    .from(merchantTerminals)
    .where(
      and(
        eq(merchantTerminals.merchantId, merchantId),
        eq(merchantTerminals.provider, acquirer.provider),
      ),
    )
    .orderBy(merchantTerminals.name);
}

/**
 * GET /api/card-terminal/paystack/terminals: the terminals a payment can be paid at, its
 * merchant's, for whoever may pay it (never another merchant's). Refused as a push would be
 * where the payment cannot be paid, or this server's terminal is a reader.
 */
export async function terminalsForPayment(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'providers'>,
  paymentId: string,
  access: TPaymentAccess,
): Promise<TPaymentTerminalsResponse> {
  pushedTerminal(ctx);
  const payable = await loadPayable(ctx.db, paymentId, access, ctx.clock.now());
  return { success: true, terminals: await merchantTerminalsOf(ctx, payable.merchantId) };
}

/**
 * What a payment's pushes are counted by (rate-limits.ts terminalPushesPerPayment): the payment
 * and who asks for it, its consent link or its signed-in payer, so that a caller without the
 * link (who is then refused) never spends the payer's own pushes.
 */
export const pushLimitKey = (paymentId: string, access: TPaymentAccess): string =>
  'payerId' in access
    ? `${paymentId}:payer:${access.payerId}`
    : `${paymentId}:link:${access.consentId}`;

/** Whether the payment is being charged now (a push waiting at its terminal, a card charge). */
async function isCharging(db: TPushContext['db'], paymentId: string): Promise<boolean> {
  const [charging] = await db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.paymentId, paymentId), eq(paymentAttempts.stage, 'charging')))
    .limit(1);
  return charging !== undefined;
}

/** POST /api/card-terminal/paystack/push: the payment request is on the terminal. */
export async function pushToTerminal(
  ctx: TPushContext,
  body: TTerminalPushRequest,
  access: TPaymentAccess,
): Promise<TTerminalPushResponse> {
  const { db, clock } = ctx;
  const terminalPort = pushedTerminal(ctx);
  const payable = await loadPayable(db, body.paymentId, access, clock.now());
  const [terminal] = await db
    .select()
    .from(merchantTerminals)
    .where(
      and(
        eq(merchantTerminals.id, body.terminalId),
        eq(merchantTerminals.merchantId, payable.merchantId),
        eq(merchantTerminals.provider, terminalPort.provider),
      ),
    );
  if (!terminal) throw new AppError('TERMINAL_NOT_REGISTERED');
  // One charge of a payment at a time, told before the terminal is asked about: a push already
  // waiting keeps its terminal busy, and a second would only say so. (The attempt's insert
  // below holds it, atomically: payment_attempts_one_charging.)
  if (await isCharging(db, payable.payment.id)) throw new AppError('PAYMENT_IN_PROGRESS');
  const presence = await terminalPort.terminalPresence(terminal.terminalId);
  if (presence === 'busy') throw new AppError('TERMINAL_BUSY');
  if (presence !== 'ready') throw new AppError('TERMINAL_OFFLINE');

  // Without sign-in, the payment is the page's that pushed it: it alone follows it.
  const owner = 'payerId' in access ? null : newChargeToken();
  const waiting = (): TTerminalPushResponse => ({
    success: true,
    status: 'waiting_for_terminal',
    paymentId: payable.payment.id,
    terminalName: terminal.name,
    ...(owner ? { chargeToken: owner.token } : {}),
  });
  return runAttempt<TTerminalPushAnswer, TTerminalPushResponse>(ctx, {
    open: {
      payable,
      fields: {
        method: 'chip_card',
        provider: terminalPort.provider,
        payerId: 'payerId' in access ? access.payerId : null,
        ownerTokenHash: owner?.hash ?? null,
      },
    },
    call: (attempt) =>
      terminalPort.pushPaymentRequest({
        reference: attempt.id,
        terminalId: terminal.terminalId,
        amount: attempt.amount,
        description: payable.merchantName,
        createdAt: attempt.createdAt,
      }),
    // The push's answer was lost: the request may be on the terminal. The attempt waits as if it
    // were, and the requery finds it by our reference (or fails the attempt if it never was made).
    noAnswer: waiting,
    answer: async (attempt, pushed) => {
      if (pushed.kind === 'refused') {
        // Nothing can be paid by it: the payment is free for another try at once.
        const failure = new AppError(
          pushed.at === 'terminal' ? 'TERMINAL_OFFLINE' : 'PAYMENT_FAILED',
        );
        return { kind: 'fail', failure, reason: `push refused: ${pushed.reason}` };
      }
      return {
        kind: 'wait',
        record: async () => {
          await db
            .update(paymentAttempts)
            .set({ providerReference: pushed.providerReference })
            .where(eq(paymentAttempts.id, attempt.id));
          return waiting();
        },
      };
    },
  });
}
