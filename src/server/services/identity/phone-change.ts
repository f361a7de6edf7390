import { and, eq, isNull, ne } from 'drizzle-orm';
import { phoneChangeCodeMessage, phoneChangedMessage } from '../../../domain/phone-change';
import type { TAuthUser } from '../../../domain/schemas/auth';
import type { TAppContext } from '../../context';
import { authSessions, payers } from '../../db/schema';
import { sendQueuedSms, type TSmsGate, type TSmsJobs, openSmsOutbox } from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { accountPageUrl } from '../page-urls';
import { isUniqueViolation } from '../../db/database-errors';
import { findPayerById, findPayerByPhone, toAuthUser } from './payers';
import { checkPhoneCode, consumePhoneCode, normalisePhone, requestPhoneCode } from './phone-codes';

/*
 * Changing the payer's sign-in number (docs/identity.md "Changing the phone number"). The routes
 * let only a session a trusted passkey proved ask (an SMS code proves the old number, which is
 * what a SIM swap takes):
 * 1. A code goes to the NEW number: a sign-in code of that number (its limits, and only the
 *    newest one counts), in words saying what it is for. Any code that reaches the number proves
 *    the payer holds it.
 * 2. On the code, in one transaction: the code is used up; the number changes in one UPDATE
 *    (WHERE the payer still has the number they had, and the unique index refuses a number
 *    another payer holds); the sessions signed in by an SMS code to the old number end, but for
 *    the one asking; and the SMS that tells the OLD number is queued (the outbox, jobs/sms-job.ts):
 *    the number never changes without its old number being told, whatever happens after the
 *    commit, and the engine tries again while the SMS provider does not take it.
 */

/** `smsGate` counts the code and the notice for the payer who asks (sms-job.ts queueSms). */
type TPhoneChangeContext = Pick<TAppContext, 'db' | 'config' | 'clock'> & {
  jobs: TSmsJobs;
  smsGate: TSmsGate;
};
type TSession = { payerId: string; sessionId: string };

/** Sends a code to the number the payer asks to sign in with; answers it in E.164. */
export async function requestPhoneChange(
  ctx: TPhoneChangeContext,
  session: TSession,
  phoneInput: string,
): Promise<{ phoneNumber: string; expiresAt: Date }> {
  const phoneNumber = normalisePhone(phoneInput);
  const payer = await findPayerById(ctx.db, session.payerId);
  if (!payer) throw new AppError('AUTHENTICATION_FAILED');
  if (payer.phoneNumber === phoneNumber) throw new AppError('PHONE_NUMBER_UNCHANGED');
  // For the message only (no code goes to a number that could not be taken): the change's
  // UPDATE decides again.
  if (await findPayerByPhone(ctx.db, phoneNumber)) throw new AppError('PHONE_NUMBER_TAKEN');
  return requestPhoneCode(
    { db: ctx.db, config: ctx.config, jobs: ctx.jobs, smsGate: ctx.smsGate },
    phoneNumber,
    ctx.clock.now(),
    (sent) => phoneChangeCodeMessage({ productName: ctx.config.productName, ...sent }),
  );
}

/** Checks the new number's code and makes it the payer's sign-in number. */
export async function confirmPhoneChange(
  ctx: TPhoneChangeContext,
  session: TSession,
  input: { phone: string; code: string },
): Promise<{ user: TAuthUser; phoneNumber: string }> {
  const { db, config } = ctx;
  const phoneNumber = normalisePhone(input.phone);
  const now = ctx.clock.now();
  const checked = await checkPhoneCode(db, config, phoneNumber, input.code, now);
  const notice = phoneChangedMessage({
    productName: config.productName,
    newPhoneNumber: phoneNumber,
    changedAt: now,
    accountPageUrl: accountPageUrl(config.publicUrl),
  });
  const outbox = await openSmsOutbox(ctx);
  let change: { user: TAuthUser; sms: string };
  try {
    change = await db.transaction(async (tx) => {
      const payer = await findPayerById(tx, session.payerId);
      if (!payer) throw new AppError('AUTHENTICATION_FAILED');
      if (payer.phoneNumber === phoneNumber) throw new AppError('PHONE_NUMBER_UNCHANGED');
      await consumePhoneCode(tx, { id: checked.id, phoneNumber }, now);
      const [changed] = await tx
        .update(payers)
        .set({ phoneNumber })
        .where(and(eq(payers.id, payer.id), eq(payers.phoneNumber, payer.phoneNumber)))
        .returning();
      // Another change of this payer's number committed first: this code is for nothing now.
      if (!changed) throw new AppError('PHONE_CODE_NOT_FOUND');
      await tx
        .update(authSessions)
        .set({ revokedAt: now })
        .where(
          and(
            eq(authSessions.payerId, payer.id),
            eq(authSessions.method, 'phone-code'),
            isNull(authSessions.revokedAt),
            ne(authSessions.id, session.sessionId),
          ),
        );
      // One change per code (it is used up here): one SMS to the old number.
      const sms = await outbox.queue(tx, `phone-changed:${checked.id}`, {
        phoneNumber: payer.phoneNumber,
        body: notice,
      });
      return { user: toAuthUser(changed), sms };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('PHONE_NUMBER_TAKEN');
    throw error;
  }
  await sendQueuedSms(ctx.jobs, [change.sms]);
  return { user: change.user, phoneNumber };
}
