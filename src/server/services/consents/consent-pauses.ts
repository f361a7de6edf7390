import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TGrantChallengeResponse } from '../../../domain/schemas/auth';
import {
  pauseSigningMessage,
  type TPauseAction,
  type TPayerConsent,
  type TRevokeConsentRequest,
} from '../../../domain/schemas/payer-consents';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { consents } from '../../db/schema';
import { AppError } from '../../app-error';
import {
  checkSignature,
  issueGrantChallenge,
  signatureRecord,
  useUpNonce,
  type TVerifiedGrant,
} from '../identity/signed-grants';
import { recordMerchantEvent } from '../change-records';
import { insertConsentEvent } from './consent-changes';
import { payerConsentView } from './payer-consents';

/*
 * Pausing a consent's future payments, and resuming them (docs/payer-consents.md "Pause and
 * resume"). Each is signed by the payer's passkey over a message of its own type naming the
 * consent, the action and a nonce issued for pausing that consent (as a revocation is), and
 * written in one transaction: the nonce used up, `consents.paused_at` set or cleared in one
 * statement that requires the consent granted and not yet in that state, the audit row with the
 * signature, and the merchant's consent.paused or consent.resumed. While paused the runner
 * notices nothing, claims nothing, and skips what falls due (payments/skipped-payments.ts);
 * the merchant's collect call answers CONSENT_PAUSED. A collection a runner claimed before the
 * pause committed runs on: it was under way, as a revocation leaves one.
 */

type TPauseContext = Pick<TAppContext, 'db' | 'config' | 'clock' | 'jobs'>;

/** The payer signing: none on a link where the passkey alone proves it. */
type TPausingSession = { payerId: string; sessionId: string | null };

/** The payer's consent, or 404 alike for one that is unknown and one that is another's. */
async function ownConsent(db: TDb, payerId: string, consentId: string) {
  const [row] = await db
    .select({ status: consents.status, pausedAt: consents.pausedAt })
    .from(consents)
    .where(and(eq(consents.id, consentId), eq(consents.grantedBy, payerId)));
  if (!row) throw new AppError('PAYER_CONSENT_NOT_FOUND');
  return row;
}

/** Whether the consent already stands as the action leaves it. */
const done = (own: { pausedAt: Date | null }, action: TPauseAction) =>
  action === 'pause' ? own.pausedAt !== null : own.pausedAt === null;

/** POST /api/users/consents/{consentId}/pause-challenges: a nonce for one pause or resume. */
export async function issuePauseChallenge(
  ctx: TPauseContext,
  payerId: string,
  consentId: string,
): Promise<Omit<TGrantChallengeResponse, 'success'>> {
  const own = await ownConsent(ctx.db, payerId, consentId);
  if (own.status !== 'granted') throw new AppError('CONSENT_NOT_PAUSABLE');
  return issueGrantChallenge(ctx.db, ctx.config, payerId, consentId, ctx.clock.now(), 'pause');
}

/** SHA-256 of the canonical pause message: the WebAuthn challenge the passkey signs. */
export function pauseDigest(input: { consentId: string; nonce: string; action: TPauseAction }) {
  return createHash('sha256').update(pauseSigningMessage(input), 'utf8').digest('base64url');
}

/**
 * POST /api/users/consents/{consentId}/pause and …/resume. A consent already paused (resumed)
 * answers as it stands, whoever's request did it; one not granted is CONSENT_NOT_PAUSABLE;
 * another payer's is not found.
 */
export async function changePause(
  ctx: TPauseContext,
  session: TPausingSession,
  consentId: string,
  action: TPauseAction,
  signed: TRevokeConsentRequest,
): Promise<TPayerConsent> {
  const { db } = ctx;
  const { payerId } = session;
  const now = ctx.clock.now();
  const own = await ownConsent(db, payerId, consentId);
  if (own.status !== 'granted') throw new AppError('CONSENT_NOT_PAUSABLE');
  if (done(own, action)) return payerConsentView(db, payerId, consentId);
  let signature: TVerifiedGrant;
  try {
    signature = await checkSignature(
      db,
      ctx.config,
      payerId,
      {
        purpose: 'pause',
        consentId,
        nonce: signed.nonce,
        digest: pauseDigest({ consentId, nonce: signed.nonce, action }),
        response: signed.response,
        failure: 'PAUSE_SIGNATURE_INVALID',
        // Pausing stops money, as revoking does; resuming lets debits run again, as a grant does.
        signsMoney: action === 'resume',
        provesSession: session.sessionId ?? undefined,
      },
      now,
    );
  } catch (error) {
    // The same signature sent twice at once: the first one changed it meanwhile.
    if (done(await ownConsent(db, payerId, consentId), action)) {
      return payerConsentView(db, payerId, consentId);
    }
    throw error;
  }
  const written = await db.transaction((tx) =>
    writePause(tx, ctx, { session, consentId, action, nonce: signed.nonce, signature, now }),
  );
  if (!written && !done(await ownConsent(db, payerId, consentId), action)) {
    throw new AppError('CONSENT_NOT_PAUSABLE');
  }
  return payerConsentView(db, payerId, consentId);
}

/**
 * The pause's transaction: the nonce used up, the consent changed in one statement, the audit
 * row with the signature and the merchant's event. False when it wrote nothing (the nonce used,
 * or the consent no longer in the state the action changes).
 */
async function writePause(
  tx: TDb,
  ctx: Pick<TPauseContext, 'jobs'>,
  change: {
    session: TPausingSession;
    consentId: string;
    action: TPauseAction;
    nonce: string;
    signature: TVerifiedGrant;
    now: Date;
  },
): Promise<boolean> {
  const { session, consentId, action, signature, now } = change;
  if (!(await useUpNonce(tx, change.nonce, now))) return false;
  // Locked first, so that the resume's event names the pause it ends.
  const [before] = await tx
    .select({ clientId: consents.clientId, pausedAt: consents.pausedAt })
    .from(consents)
    .where(
      and(
        eq(consents.id, consentId),
        eq(consents.grantedBy, session.payerId),
        eq(consents.status, 'granted'),
      ),
    )
    .for('update');
  if (!before || done(before, action)) return false;
  await tx
    .update(consents)
    .set({ pausedAt: action === 'pause' ? now : null })
    .where(eq(consents.id, consentId));
  const type = action === 'pause' ? 'consent.paused' : 'consent.resumed';
  const data =
    action === 'pause'
      ? { consentId, pausedAt: now.toISOString() }
      : { consentId, resumedAt: now.toISOString(), pausedAt: before.pausedAt?.toISOString() };
  await insertConsentEvent(tx, {
    consentId,
    type,
    actor: `payer:${session.payerId}`,
    data: {
      ...data,
      signature: signatureRecord(signature),
    },
    createdAt: now,
  });
  await recordMerchantEvent(ctx.jobs, tx, {
    clientId: before.clientId,
    consentId,
    type,
    data,
    now,
  });
  return true;
}
