import {
  SHARED_BVN_FIELDS,
  type TSharedBvnField,
  type TSharedBvnResponse,
} from '../../../domain/schemas/merchant-api';
import type { TAppContext } from '../../context';
import { AppError } from '../../app-error';
import { openBvnHolder, openVerifiedBvn } from '../identity/bvn';
import { bvnSharingOf } from './shared-bvn-states';
import { eq } from 'drizzle-orm';
import { consents } from '../../db/schema';
import { recordBvnLookup } from '../payer-rights/bvn-lookups';

/*
 * The payer's BVN shared with the merchant (docs/merchant-clients.md "Shared data"): a consent
 * that asked for BVN data, granted with bvnData among the grant's dataTypes, shares the BVN the
 * payer who granted it has verified (docs/identity.md "The BVN") for as long as it stays granted,
 * and nothing when they have verified none, with the holder's name and birth date as the registry
 * gave them when the payer proved the BVN. Both are opened only to answer the merchant's read,
 * never stored in clear nor logged. Every read is on the payer's list of lookups
 * (payer-rights/bvn-lookups.ts): which merchant received what, for which consent, recorded
 * before the answer goes.
 */

/** The registry's fields the consent asked for: all of them when bvnData was asked whole. */
function fieldsAsked(asked: Array<string | null>): TSharedBvnField[] {
  if (asked.includes(null)) return [...SHARED_BVN_FIELDS];
  return SHARED_BVN_FIELDS.filter((field) => asked.includes(field));
}

/** The payer's BVN, and `fields` with it, handed to the consent's merchant: on their list. */
async function recordHandOver(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  payerId: string | null,
  consentId: string,
  fields: TSharedBvnField[],
): Promise<void> {
  if (!payerId) return;
  const [consent] = await ctx.db
    .select({ merchantId: consents.merchantId })
    .from(consents)
    .where(eq(consents.id, consentId));
  await recordBvnLookup(ctx.db, {
    payerId,
    kind: 'data_shared',
    consentId,
    merchantId: consent?.merchantId ?? null,
    items: ['bvn', ...fields],
    at: ctx.clock.now(),
  });
}

/**
 * GET /api/v1/consents/{consentId}/shared-data/bvn: the verified BVN of the payer who granted
 * the client's consent, with the registry's fields the consent asked for. Another client's
 * consent reads as absent.
 */
export async function readSharedBvn(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  clientId: string,
  consentId: string,
): Promise<TSharedBvnResponse['bvn']> {
  const sharing = (await bvnSharingOf(ctx.db, [consentId])).get(consentId);
  if (!sharing || sharing.clientId !== clientId) throw new AppError('CONSENT_NOT_FOUND');
  if (sharing.asked.length === 0) throw new AppError('BVN_NOT_SHARED');
  if (sharing.status === 'revoked') throw new AppError('CONSENT_REVOKED');
  if (sharing.status !== 'granted') throw new AppError('CONSENT_NOT_GRANTED');
  if (!sharing.granted || sharing.ended) throw new AppError('BVN_NOT_SHARED');
  const bvn = sharing.grantedBy ? await openVerifiedBvn(ctx.db, sharing.grantedBy) : null;
  if (!bvn || !sharing.verified) throw new AppError('SHARED_BVN_NOT_VERIFIED');
  const fields = fieldsAsked(sharing.asked);
  if (fields.length === 0) {
    await recordHandOver(ctx, sharing.grantedBy, consentId, []);
    return { bvn };
  }
  // What the registry said of the holder when the payer proved the BVN: a registry that sends its
  // own code (NIBSS's iGree) answers a holder only with the payer's code, never to a merchant.
  const record = sharing.grantedBy ? await openBvnHolder(ctx.db, sharing.grantedBy) : null;
  if (!record) throw new AppError('BVN_REGISTRY_NO_RECORD');
  await recordHandOver(ctx, sharing.grantedBy, consentId, fields);
  return {
    bvn,
    ...(fields.includes('fullName') ? { fullName: record.fullName } : {}),
    ...(fields.includes('dateOfBirth') ? { dateOfBirth: record.dateOfBirth } : {}),
  };
}
