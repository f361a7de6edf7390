import type { TAuthUser, TLoginRequest } from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { AppError } from '../../app-error';
import { claimDiscovery, readOpenDiscovery } from './auth-discovery';
import { allowedOriginsOf } from '../merchants/merchant-clients';
import { verifySignIn } from './passkeys';
import { createSession, tokenForSession, type TSessionMethod } from './payer-sessions';
import { countPasskeys, createPayer, findPayerById, findPayerByPhone, toAuthUser } from './payers';
import { checkPhoneCode, consumePhoneCode, normalisePhone } from './phone-codes';

export type TLoginResult = {
  token: string;
  user: TAuthUser;
  expiresAt: Date;
  newAccount: boolean;
  passkeyCount: number;
};

/**
 * The login call (spec §7): clientId and discovery id are required (§5, §8), then either a
 * passkey assertion or a phone code proves who signs in. A phone code for a number with no
 * account signs the payer up when a name comes with it. Answers a short-lived bearer token.
 */
export async function login(
  db: TDb,
  config: TConfig,
  input: TLoginRequest,
  now: Date = new Date(),
): Promise<TLoginResult> {
  const clientId = input.clientId?.trim();
  if (!clientId) throw new AppError('MISSING_CLIENT_ID');
  const discoveryId = input.discoveryId?.trim();
  if (!discoveryId) throw new AppError('DISCOVERY_ID_REQUIRED');
  const discovery = await readOpenDiscovery(db, { discoveryId, clientId }, now);

  let method: TSessionMethod;
  let passkeyProvenAt: Date | null = null;
  let payerId: string | null = null;
  let signUp: { phoneNumber: string; fullName: string } | null = null;
  let checkedCode: { id: number; phoneNumber: string } | null = null;
  if (input.method === 'passkey') {
    method = 'passkey';
    // A merchant's registered origins may frame the page while the passkey is used.
    const embedOrigins = await allowedOriginsOf(db, clientId);
    const signedIn = await verifySignIn(
      db,
      config,
      { response: input.response, embedOrigins },
      now,
    );
    payerId = signedIn.payerId;
    // Trusted at the moment it signed (checked in the statement that used it): proven.
    if (signedIn.trusted) passkeyProvenAt = now;
  } else {
    method = 'phone-code';
    const phoneNumber = normalisePhone(input.phone);
    const code = await checkPhoneCode(db, config, phoneNumber, input.code, now);
    checkedCode = { id: code.id, phoneNumber };
    const payer = await findPayerByPhone(db, phoneNumber);
    if (payer) payerId = payer.id;
    // The code was right: saying that the number has no account yet tells its owner only.
    else if (!input.fullName) throw new AppError('PAYER_NOT_FOUND');
    else signUp = { phoneNumber, fullName: input.fullName };
  }

  const outcome = await db.transaction(async (tx) => {
    if (checkedCode) await consumePhoneCode(tx, checkedCode, now);
    let newAccount = false;
    let id = payerId;
    if (signUp) {
      const created = await createPayer(tx, signUp);
      id = created.payer.id;
      newAccount = created.created;
    }
    if (!id) throw new AppError('LOGIN_FAILED');
    await claimDiscovery(tx, discovery, id, now);
    const session = await createSession(
      tx,
      config,
      {
        payerId: id,
        clientId,
        discoveryId,
        authAppId: input.authAppId ?? discovery.authAppId,
        method,
        passkeyProvenAt,
      },
      now,
    );
    return { payerId: id, newAccount, ...session };
  });

  const payer = await findPayerById(db, outcome.payerId);
  if (!payer) throw new AppError('LOGIN_FAILED');
  const token = await tokenForSession(db, config, outcome, now);
  return {
    token,
    user: toAuthUser(payer),
    expiresAt: outcome.expiresAt,
    newAccount: outcome.newAccount,
    passkeyCount: await countPasskeys(db, payer.id),
  };
}
