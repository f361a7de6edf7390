import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxBvnSessions } from '../db/schema';
import type { TBvnRegistryPort } from '../providers/payments';
import { accountsOfSandboxBvn, findSandboxAccount, lookupSandboxBvn } from './sandbox-people';

/*
 * The sandbox's BVN registry (docs/sandbox.md "Test people"), shaped as NIBSS's iGree consent is
 * through Mono (docs/providers/mono.md): a verification opens a session with the ways a code can
 * reach the BVN's holder, the registry itself sends the code the way the payer chose, and checks
 * it. Its one way is the phone the BVN is registered with, and its SMS goes through the server's
 * SMS outbox (`deliver`), so a person trying it by hand reads it on /sandbox/messages. Like
 * NIBSS, it keeps the BVN and a hash of the code it sent; the server keeps neither in clear.
 */

/** How long a sandbox verification may be finished, as iGree's session. */
export const SANDBOX_BVN_SESSION_MS = 10 * 60_000;

/** The one way the sandbox registry sends a code: SMS to the BVN's registered phone. */
const PHONE_METHOD = 'phone';

/** An SMS the sandbox registry hands the server's outbox; `change` names it once. */
export type TSandboxCodeDelivery = (message: {
  change: string;
  phoneNumber: string;
  body: string;
  notAfter: Date;
}) => Promise<void>;

const codeHashOf = (session: string, code: string) =>
  createHash('sha256').update(`${session}:${code}`).digest('base64url');

/** '+2348031234567' as the registry hints at it: '0803***4567'. */
function phoneHint(phoneNumber: string): string {
  const national = `0${phoneNumber.replace(/^\+234/, '')}`;
  return `SMS to ${national.slice(0, 4)}***${national.slice(-4)}`;
}

export function sandboxBvnRegistry(parts: {
  db: TDb;
  clock: TClock;
  /** Absent where nothing may be sent (npm run ledger:check): a code asked for then throws. */
  deliver?: TSandboxCodeDelivery | undefined;
}): TBvnRegistryPort {
  const { db, clock } = parts;
  const openSession = async (session: string) => {
    const [row] = await db
      .select()
      .from(sandboxBvnSessions)
      .where(
        and(eq(sandboxBvnSessions.session, session), gt(sandboxBvnSessions.expiresAt, clock.now())),
      );
    return row ?? null;
  };
  return {
    provider: 'sandbox',
    codeSender: 'sandbox',
    // Its answers are the sandbox banks' name enquiry's: nothing to ask beside them.
    decidesOwners: false,
    async startVerification(bvn) {
      const person = await lookupSandboxBvn(db, bvn);
      if (!person) return null;
      const session = `sbx_bvn_${randomBytes(16).toString('hex')}`;
      const expiresAt = new Date(clock.now().getTime() + SANDBOX_BVN_SESSION_MS);
      await db.insert(sandboxBvnSessions).values({ session, bvn, expiresAt });
      return { session, methods: [{ id: PHONE_METHOD, hint: phoneHint(person.phoneNumber) }] };
    },
    async sendCode(session, method) {
      if (method !== PHONE_METHOD) throw new Error(`The sandbox registry has no method ${method}`);
      if (!parts.deliver) throw new Error('The sandbox registry sends no code here');
      const row = await openSession(session);
      const person = row ? await lookupSandboxBvn(db, row.bvn) : null;
      if (!row || !person) return 'expired';
      const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
      // A resend replaces the code: only the newest one is right.
      await db
        .update(sandboxBvnSessions)
        .set({ codeHash: codeHashOf(session, code) })
        .where(eq(sandboxBvnSessions.session, session));
      await parts.deliver({
        change: `sandbox-bvn:${session}:${codeHashOf(session, code)}`,
        phoneNumber: person.phoneNumber,
        body: `NIBSS (sandbox): your BVN consent code is ${code}. It expires in 10 minutes. Never share it with anyone.`,
        notAfter: row.expiresAt,
      });
      return 'sent';
    },
    async finishVerification(session, code) {
      const row = await openSession(session);
      if (!row) return { outcome: 'expired' };
      if (!row.codeHash || row.codeHash !== codeHashOf(session, code)) {
        return { outcome: 'wrong_code' };
      }
      // One use, as iGree's consent: the session is spent.
      const [spent] = await db
        .delete(sandboxBvnSessions)
        .where(eq(sandboxBvnSessions.session, session))
        .returning({ bvn: sandboxBvnSessions.bvn });
      const person = spent ? await lookupSandboxBvn(db, spent.bvn) : null;
      if (!spent || !person) return { outcome: 'expired' };
      return {
        outcome: 'verified',
        bvn: spent.bvn,
        holder: { fullName: person.fullName, dateOfBirth: person.dateOfBirth },
        accounts: await accountsOfSandboxBvn(db, spent.bvn),
      };
    },
    async accountOwner(account, beforeBilledCall) {
      // Free here, but counted as a registry's lookup is: the limits are the payer's either way.
      await beforeBilledCall?.();
      return (await findSandboxAccount(db, account))?.bvn ?? null;
    },
  };
}
