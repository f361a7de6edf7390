import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { merchantAgents, merchants } from '../../db/schema';
import { AppError } from '../../app-error';

export type TIdentifiedTo = { merchantId: string; merchantName: string; role: string };

/**
 * Merchant or agent mode (spec §6): a payer who sends x-identify-to acts for that merchant, if
 * the merchant made them its agent. Anyone else is refused, whatever the merchant id.
 */
export async function resolveIdentifyTo(
  db: TDb,
  payerId: string,
  merchantId: string,
): Promise<TIdentifiedTo> {
  const [row] = await db
    .select({ merchantId: merchants.id, merchantName: merchants.name, role: merchantAgents.role })
    .from(merchantAgents)
    .innerJoin(merchants, eq(merchants.id, merchantAgents.merchantId))
    .where(and(eq(merchantAgents.merchantId, merchantId), eq(merchantAgents.payerId, payerId)));
  if (!row) throw new AppError('IDENTIFY_TO_FORBIDDEN');
  return row;
}

/** Makes a payer an agent of a merchant (demo seed, tests, and later the merchant console). */
export async function addMerchantAgent(
  db: TDb,
  input: { merchantId: string; payerId: string; role: string },
): Promise<void> {
  await db
    .insert(merchantAgents)
    .values(input)
    .onConflictDoUpdate({
      target: [merchantAgents.merchantId, merchantAgents.payerId],
      set: { role: input.role },
    });
}
