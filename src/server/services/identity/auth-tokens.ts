import { errors, jwtVerify, SignJWT } from 'jose';
import type { TIdentityKeys } from './identity-keys';
import { AppError } from '../../app-error';

const ALGORITHM = 'HS256';
const AUDIENCE = 'oya-money:payer';

export type TTokenClaims = {
  /** The payer. */
  sub: string;
  /** The session (auth_sessions.id): signing out revokes it. */
  sid: string;
};

/**
 * Signs a short-lived payer bearer token (docs/identity.md says why short). The issuer is our
 * public URL, so a token of one deployment is not accepted by another.
 */
export async function signPayerToken(
  keys: TIdentityKeys,
  claims: TTokenClaims,
  options: { issuer: string; issuedAt: Date; expiresAt: Date },
): Promise<string> {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(options.issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(options.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(options.expiresAt.getTime() / 1000))
    .sign(keys.tokenKey);
}

/** Checks a token's signature, issuer, audience and lifetime; an expired one is TOKEN_EXPIRED. */
export async function verifyPayerToken(
  keys: TIdentityKeys,
  token: string,
  options: { issuer: string; now: Date },
): Promise<TTokenClaims & { exp: number }> {
  try {
    const { payload } = await jwtVerify(token, keys.tokenKey, {
      algorithms: [ALGORITHM],
      issuer: options.issuer,
      audience: AUDIENCE,
      currentDate: options.now,
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !payload.exp) {
      throw new AppError('AUTHENTICATION_FAILED');
    }
    return { sub: payload.sub, sid: payload.sid, exp: payload.exp };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
    if (error instanceof AppError) throw error;
    throw new AppError('AUTHENTICATION_FAILED');
  }
}
