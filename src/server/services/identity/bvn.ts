import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import {
  BVN_CODE_LENGTH,
  BVN_CODE_MAX_WRONG_TRIES,
  BVN_CODE_SENDS_PER_VERIFICATION,
  BVN_CODE_TTL_MS,
  BVN_CODES_PER_PAYER_PER_HOUR,
  toBvn,
} from '../../../domain/bvn';
import { bvnCodeSentMessage } from '../../../domain/bvn-code-texts';
import { formatErrorMessage } from '../../../domain/errors';
import type { TBvnCodeMethod, TVerifiedBvn } from '../../../domain/schemas/identity';
import type { TAppContext } from '../../context';
import { sealText, unsealText } from '../../crypto/sealing';
import type { TDb } from '../../db/database';
import { bvnCodes, payers } from '../../db/schema';
import type { TAccountAtBank, TBvnHolder, TBvnRegistryPort } from '../../providers/payments';
import { AppError } from '../../app-error';
import { holderOfAccount, type TOwnerLookups } from '../linking/account-owners';
import { adoptLinksUnderBvn } from '../linking/bvn-ownership';
import { isUniqueViolation } from '../../db/database-errors';
import { codeTargetKey, HOUR_MS, refuseBeyondHourlyLimit } from './code-sends';
import { bvnHashOf, bvnKeys, SEAL_LABEL } from './bvn-keys';
import { lookupSandboxBvn } from '../../sandbox/sandbox-people';
import { usable } from '../../providers/off';
import { recordBvnLookup } from '../payer-rights/bvn-lookups';

/*
 * The payer's BVN (docs/identity.md "The BVN"): the anchor of ownership. The BVN registry proves a
 * BVN is the payer's, as NIBSS's iGree consent does through Mono: it opens a verification with the
 * ways it can reach the BVN's holder (masked hints), sends its code the way the payer picks, and
 * checks the code, answering who the holder is. Not this server: it never makes nor sees a code
 * it could check. One BVN belongs to one payer (a unique index on its keyed hash).
 *
 * Every call to the registry may be billed (Mono bills each, failed ones too): a verification is
 * opened only for a BVN of 11 digits, within the payer's hourly limit and the BVN's across payers
 * and addresses; its codes are limited per verification; its wrong tries are counted before the
 * registry is asked.
 *
 * A BVN is never kept in clear nor logged: a keyed hash (HMAC-SHA256) finds it and compares it
 * with an account's holder BVN, its last 4 digits are shown, and the BVN itself is sealed
 * (AES-256-GCM) for the data-sharing grant that hands it to a merchant, with what the registry
 * said of its holder. The registry's session is sealed too: it finishes a verification. The keys
 * are derived from a server secret, which SECRETS_KEY seals in the database.
 */

type TBvnContext = Pick<TAppContext, 'db' | 'config' | 'clock' | 'providers' | 'jobs'>;

/** Seal labels: a sealed holder cannot be opened as a list of accounts, nor either as a BVN. */
const HOLDER_LABEL = 'bvn-holder';
const ACCOUNTS_LABEL = 'bvn-accounts';

/** The payer's verified BVN as the page may see it, or null. */
export async function verifiedBvn(db: TDb, payerId: string): Promise<TVerifiedBvn | null> {
  const [row] = await db
    .select({ last4: payers.bvnLast4, verifiedAt: payers.bvnVerifiedAt })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!row?.last4 || !row.verifiedAt) return null;
  return { last4: row.last4, verifiedAt: row.verifiedAt.toISOString() };
}

/** The payer's verified BVN in clear, for a grant that shares it with a merchant; null if none. */
export async function openVerifiedBvn(db: TDb, payerId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: payers.bvnSealed })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!row?.sealed) return null;
  return unsealText(row.sealed, (await bvnKeys(db)).sealKey, SEAL_LABEL);
}

/**
 * What the registry said of the holder of the payer's verified BVN when it proved it: for a grant
 * that shares BVN data; null before a verification. A payer verified before the registry's
 * answers were kept (migration 0047) was verified by the sandbox's registry, the only one there
 * was: its record of the BVN, which it still holds, stands in for the answer it gave then.
 */
export async function openBvnHolder(db: TDb, payerId: string): Promise<TBvnHolder | null> {
  const [row] = await db
    .select({ sealed: payers.bvnHolderSealed, bvnSealed: payers.bvnSealed })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!row?.bvnSealed) return null;
  const { sealKey } = await bvnKeys(db);
  if (row.sealed) return JSON.parse(unsealText(row.sealed, sealKey, HOLDER_LABEL)) as TBvnHolder;
  const record = await lookupSandboxBvn(db, unsealText(row.bvnSealed, sealKey, SEAL_LABEL));
  return record && { fullName: record.fullName, dateOfBirth: record.dateOfBirth };
}

/**
 * The accounts the registry held under the payer's BVN when it proved it; none when its consent
 * gave none (Mono's identity scope: the payer then names the account, and its owner is looked up).
 */
export async function openBvnAccounts(db: TDb, payerId: string): Promise<TAccountAtBank[]> {
  const [row] = await db
    .select({ sealed: payers.bvnAccountsSealed })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!row?.sealed) return [];
  return JSON.parse(
    unsealText(row.sealed, (await bvnKeys(db)).sealKey, ACCOUNTS_LABEL),
  ) as TAccountAtBank[];
}

/** A BVN as a payer's row keeps it: its keyed hash, sealed, and its last 4 digits. */
export async function keptBvn(
  db: TDb,
  bvn: string,
): Promise<{ bvnHash: string; bvnSealed: string; bvnLast4: string }> {
  const keys = await bvnKeys(db);
  return {
    bvnHash: await bvnHashOf(db, bvn),
    bvnSealed: sealText(bvn, keys.sealKey, SEAL_LABEL),
    bvnLast4: bvn.slice(-4),
  };
}

/**
 * What the registry said with the payer's code, as a payer's row keeps it (sealed): the BVN's
 * holder, and the accounts under it when its consent gave them (null: none given).
 */
export async function keptBvnConsent(
  db: TDb,
  holder: TBvnHolder,
  accounts: readonly TAccountAtBank[] | null,
): Promise<{ bvnHolderSealed: string; bvnAccountsSealed: string | null }> {
  const { sealKey } = await bvnKeys(db);
  return {
    bvnHolderSealed: sealText(JSON.stringify(holder), sealKey, HOLDER_LABEL),
    bvnAccountsSealed: accounts
      ? sealText(JSON.stringify(accounts), sealKey, ACCOUNTS_LABEL)
      : null,
  };
}

/**
 * POST /api/identity/bvn: opens a verification of `input.bvn` at the registry, and answers the
 * ways it can send the code. The verification is recorded (and counted against the payer's hourly
 * limit) before the registry is asked, so an ask the registry bills counts whatever it answers; a
 * BVN it does not hold is BVN_NOT_FOUND. The registry that answered is on the payer's list of
 * lookups (payer-rights/bvn-lookups.ts) from then on. The BVN's own limit, across payers and
 * addresses, is `countTarget` (the shared rate limits). `mayReplace`: whether the session may
 * replace a verified BVN by another (only a session a trusted passkey proved may).
 */
export async function startBvnVerification(
  ctx: TBvnContext,
  payerId: string,
  input: { bvn: string; mayReplace: boolean; countTarget: (targetKey: string) => Promise<void> },
): Promise<{ expiresAt: Date; codeSender: 'nibss' | 'sandbox'; methods: TBvnCodeMethod[] }> {
  const bvn = toBvn(input.bvn);
  if (!bvn) throw new AppError('BVN_INVALID');
  await input.countTarget(await codeTargetKey(ctx.db, `bvn:${bvn}`));
  const kept = await keptBvn(ctx.db, bvn);
  const [payer] = await ctx.db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  // The guard read is for the message only: the verification's UPDATE decides again.
  if (payer?.bvnHash && payer.bvnHash !== kept.bvnHash && !input.mayReplace) {
    throw new AppError('PASSKEY_PROOF_REQUIRED');
  }
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + BVN_CODE_TTL_MS);
  const keys = await bvnKeys(ctx.db);
  const id = await ctx.db.transaction(async (tx) => {
    await refuseBeyondHourlyLimit(
      tx,
      { table: bvnCodes, createdAt: bvnCodes.createdAt },
      {
        lockKey: `bvn-code:${payerId}`,
        sent: eq(bvnCodes.payerId, payerId),
        limit: BVN_CODES_PER_PAYER_PER_HOUR,
        now,
      },
    );
    await tx
      .update(bvnCodes)
      .set({ supersededAt: now })
      .where(
        and(
          eq(bvnCodes.payerId, payerId),
          isNull(bvnCodes.consumedAt),
          isNull(bvnCodes.supersededAt),
        ),
      );
    const [stored] = await tx
      .insert(bvnCodes)
      .values({
        payerId,
        ...kept,
        sessionSealed: '',
        methods: [],
        createdAt: now,
        expiresAt,
      })
      .returning({ id: bvnCodes.id });
    if (!stored) throw new Error('The verification was not stored');
    await tx
      .delete(bvnCodes)
      .where(
        and(
          eq(bvnCodes.payerId, payerId),
          lt(bvnCodes.createdAt, new Date(now.getTime() - 24 * HOUR_MS)),
        ),
      );
    return stored.id;
  });

  const { name, registry, opened } = await openAtRegistry(ctx, bvn);
  // The registry that answered was given the BVN: a lookup on the payer's list, whether the
  // payer finishes the verification or not, and even when it holds no such BVN.
  const lookup = { payerId, kind: 'bvn_verification', provider: name, at: now } as const;
  if (!opened) {
    await ctx.db.transaction(async (tx) => {
      await tx.update(bvnCodes).set({ supersededAt: now }).where(eq(bvnCodes.id, id));
      await recordBvnLookup(tx, lookup);
    });
    throw new AppError('BVN_NOT_FOUND');
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(bvnCodes)
      .set({
        registry: name,
        sessionSealed: sealText(opened.session, keys.sealKey, SESSION_LABEL),
        methods: opened.methods,
      })
      .where(eq(bvnCodes.id, id));
    await recordBvnLookup(tx, lookup);
  });
  return { expiresAt, codeSender: registry.codeSender, methods: opened.methods };
}

/**
 * Opens a verification of `bvn` at the registries of BVN_REGISTRIES, in the order health routing
 * gives, each asked once (every ask may be billed). One that gave no answer (down, a timeout, a 5xx, a refused key) hands the ask to the
 * next; one that answered ends it, even to say it holds no such BVN: the registries look up the
 * same NIBSS record, and another would say the same. BVN_REGISTRY_UNAVAILABLE when none answered.
 */
async function openAtRegistry(
  ctx: TBvnContext,
  bvn: string,
): Promise<{
  name: string;
  registry: TBvnRegistryPort;
  opened: Awaited<ReturnType<TBvnRegistryPort['startVerification']>>;
}> {
  const { registry: adapters, health, payments } = ctx.providers;
  // No registry at all: the capability's own refusal (CAPABILITY_OFF).
  usable(payments.bvn);
  const route = await health.route({ capability: 'bvn' }, adapters.lists.bvn);
  // Every registry eliminated: the payer's ask is still worth one try at each.
  const order = route.order.length > 0 ? route.order : adapters.lists.bvn;
  for (const name of order) {
    const registry = adapters.portOf(name, 'bvn');
    // Its outcome counts in the registry's health where every port call does (recorded-ports.ts).
    const opened = await registry.startVerification(bvn).then(
      (answer) => ({ answer }),
      () => null,
    );
    if (opened) return { name, registry, opened: opened.answer };
  }
  throw new AppError('BVN_REGISTRY_UNAVAILABLE');
}

/**
 * The registry that opened a verification: its session is that registry's, so its code is sent
 * and checked there, never at another. One opened before the registry was recorded was opened by
 * the list's first.
 */
const registryOf = (ctx: TBvnContext, row: { registry: string | null }): TBvnRegistryPort =>
  row.registry === null
    ? usable(ctx.providers.payments.bvn)
    : ctx.providers.registry.portOf(row.registry, 'bvn');

/** The seal label of a registry's session: a sealed BVN cannot be opened as one. */
const SESSION_LABEL = 'bvn-registry-session';

/**
 * A verification that may still be tried: neither used nor replaced, unexpired, its session
 * opened by the registry, with tries left.
 */
const triable = (now: Date) =>
  and(
    isNull(bvnCodes.consumedAt),
    isNull(bvnCodes.supersededAt),
    gt(bvnCodes.expiresAt, now),
    lt(bvnCodes.wrongTries, BVN_CODE_MAX_WRONG_TRIES),
    sql`${bvnCodes.sessionSealed} <> ''`,
  );

/** The payer's live verification: the newest one neither used nor replaced. */
const latestLiveCodeId = (payerId: string) => sql`(
  select ${bvnCodes.id} from ${bvnCodes}
  where ${bvnCodes.payerId} = ${payerId}
    and ${bvnCodes.consumedAt} is null and ${bvnCodes.supersededAt} is null
  order by ${bvnCodes.createdAt} desc, ${bvnCodes.id} desc
  limit 1)`;

/** Why a send or a guess was not even tried: only the message depends on this read. */
async function whyNoTry(db: TDb, payerId: string, now: Date): Promise<AppError> {
  const [row] = await db
    .select({ expiresAt: bvnCodes.expiresAt, sends: bvnCodes.sends, method: bvnCodes.method })
    .from(bvnCodes)
    .where(sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`);
  if (!row) return new AppError('PHONE_CODE_NOT_FOUND');
  if (row.expiresAt.getTime() <= now.getTime()) return new AppError('PHONE_CODE_EXPIRED');
  return new AppError('PHONE_CODE_LOCKED');
}

/**
 * POST /api/identity/bvn/code: has the registry send the code of the payer's live verification
 * the way they chose (one the registry offered); asked again, it sends again, the same way or
 * another, up to BVN_CODE_SENDS_PER_VERIFICATION in all. The send is counted before the registry
 * is asked, in one statement with the checks.
 */
export async function sendBvnCode(
  ctx: TBvnContext,
  payerId: string,
  input: { method: string },
): Promise<{ message: string }> {
  const now = ctx.clock.now();
  const offered = sql`${bvnCodes.methods} @> ${JSON.stringify([{ id: input.method }])}::jsonb`;
  const [claimed] = await ctx.db
    .update(bvnCodes)
    .set({ sends: sql`${bvnCodes.sends} + 1`, method: input.method })
    .where(
      and(
        sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`,
        triable(now),
        lt(bvnCodes.sends, BVN_CODE_SENDS_PER_VERIFICATION),
        offered,
      ),
    )
    .returning({
      id: bvnCodes.id,
      sessionSealed: bvnCodes.sessionSealed,
      methods: bvnCodes.methods,
      registry: bvnCodes.registry,
    });
  if (!claimed) {
    const [offers] = await ctx.db
      .select({ id: bvnCodes.id })
      .from(bvnCodes)
      .where(and(sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`, triable(now), offered));
    if (!offers) throw await whyNoTryOrMethod(ctx.db, payerId, now);
    // Every send this verification may make was made: a new verification sends more.
    throw new AppError('PHONE_CODE_LOCKED');
  }
  const registry = registryOf(ctx, claimed);
  const session = unsealText(claimed.sessionSealed, (await bvnKeys(ctx.db)).sealKey, SESSION_LABEL);
  let sent;
  try {
    sent = await registry.sendCode(session, input.method);
  } catch {
    throw new AppError('BVN_REGISTRY_UNAVAILABLE');
  }
  if (sent === 'expired') {
    await ctx.db.update(bvnCodes).set({ supersededAt: now }).where(eq(bvnCodes.id, claimed.id));
    throw new AppError('PHONE_CODE_EXPIRED');
  }
  const hint = claimed.methods.find((method) => method.id === input.method)?.hint ?? '';
  return { message: bvnCodeSentMessage(registry.codeSender, hint) };
}

/** Why a send was refused: no live verification, an expired one, or a way it did not offer. */
async function whyNoTryOrMethod(db: TDb, payerId: string, now: Date): Promise<AppError> {
  const [live] = await db
    .select({ id: bvnCodes.id })
    .from(bvnCodes)
    .where(and(sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`, triable(now)));
  return live ? new AppError('BVN_METHOD_UNKNOWN') : whyNoTry(db, payerId, now);
}

/**
 * POST /api/identity/bvn/verify: gives the registry the code the payer received, and records the
 * BVN it proved as the payer's, with what it said of the holder and the accounts under the BVN
 * (sealed). The try is counted before the registry is asked, in one statement with the checks
 * (concurrent guesses get 5 tries, no more), and given back when the code was right or the
 * registry did not answer. The verification is used up and the payer's BVN set in one
 * transaction, where the unique index on the hash refuses a BVN another payer verified
 * (BVN_TAKEN: said only now, to whoever proved the code), and a verified BVN is replaced only
 * when `mayReplace`.
 */
export async function verifyBvnCode(
  ctx: TBvnContext & TOwnerLookups,
  payerId: string,
  input: { code: string; mayReplace: boolean },
): Promise<TVerifiedBvn> {
  const code = input.code.trim();
  if (!new RegExp(`^\\d{${BVN_CODE_LENGTH}}$`).test(code)) {
    throw new AppError('PHONE_CODE_FORMAT_INVALID');
  }
  const now = ctx.clock.now();
  const live = and(triable(now), isNotNull(bvnCodes.method));
  const [tried] = await ctx.db
    .update(bvnCodes)
    .set({ wrongTries: sql`${bvnCodes.wrongTries} + 1` })
    .where(and(sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`, live))
    .returning();
  if (!tried) throw await whyNoTry(ctx.db, payerId, now);
  const giveBack = () =>
    ctx.db
      .update(bvnCodes)
      .set({ wrongTries: sql`${bvnCodes.wrongTries} - 1` })
      .where(eq(bvnCodes.id, tried.id));
  const keys = await bvnKeys(ctx.db);
  let ended;
  try {
    ended = await registryOf(ctx, tried).finishVerification(
      unsealText(tried.sessionSealed, keys.sealKey, SESSION_LABEL),
      code,
    );
  } catch {
    await giveBack();
    throw new AppError('BVN_REGISTRY_UNAVAILABLE');
  }
  if (ended.outcome === 'expired') {
    await ctx.db.update(bvnCodes).set({ supersededAt: now }).where(eq(bvnCodes.id, tried.id));
    throw new AppError('PHONE_CODE_EXPIRED');
  }
  if (ended.outcome === 'wrong_code') {
    const left = BVN_CODE_MAX_WRONG_TRIES - tried.wrongTries;
    if (left <= 0) throw new AppError('PHONE_CODE_LOCKED');
    throw new AppError(
      'PHONE_CODE_INCORRECT',
      formatErrorMessage('PHONE_CODE_INCORRECT', {
        tries: `${left} ${left === 1 ? 'try' : 'tries'}`,
      }),
    );
  }
  // The registry proved the BVN the verification was opened for, or nothing of this payer's.
  if ((await bvnHashOf(ctx.db, ended.bvn)) !== tried.bvnHash) {
    await giveBack();
    throw new AppError('BVN_REGISTRY_UNAVAILABLE');
  }
  const consent = await keptBvnConsent(ctx.db, ended.holder, ended.accounts);
  let verified: TVerifiedBvn;
  try {
    verified = await ctx.db.transaction(async (tx) => {
      const [used] = await tx
        .update(bvnCodes)
        .set({ consumedAt: now, wrongTries: sql`${bvnCodes.wrongTries} - 1` })
        .where(
          and(
            eq(bvnCodes.id, tried.id),
            isNull(bvnCodes.consumedAt),
            isNull(bvnCodes.supersededAt),
          ),
        )
        .returning();
      if (!used) throw await whyNoTry(tx, payerId, now);
      const [set] = await tx
        .update(payers)
        .set({
          bvnHash: used.bvnHash,
          bvnSealed: used.bvnSealed,
          bvnLast4: used.bvnLast4,
          bvnVerifiedAt: now,
          ...consent,
        })
        .where(
          and(
            eq(payers.id, payerId),
            input.mayReplace
              ? undefined
              : or(isNull(payers.bvnHash), eq(payers.bvnHash, used.bvnHash)),
          ),
        )
        .returning({ last4: payers.bvnLast4 });
      if (!set) throw new AppError('PASSKEY_PROOF_REQUIRED');
      // Not a new lookup: it was listed when the registry was given the BVN
      // (startBvnVerification), and finishing asks that same registry.
      return { last4: used.bvnLast4, verifiedAt: now.toISOString() };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('BVN_TAKEN');
    throw error;
  }
  // Links made before BVNs were checked, on accounts held under this BVN, may debit again: the
  // payer's own accounts, which they asked to link, so the registry may be asked about them.
  await adoptLinksUnderBvn(ctx.db, payerId, async (account) => {
    const found = await usable(ctx.providers.payments.banks).nameEnquiry(account);
    if (!found) return null;
    return (await holderOfAccount(ctx, payerId, account, found.bvn)).bvnHash;
  });
  return verified;
}
