import { FIRST_PARTY_CLIENT_ID } from '../../../domain/constants';

/** Who the sign-in is for: the spec's login call names the client, and optionally an auth app. */
export type TSignInContext = {
  clientId: string;
  /** A consent page's sign-in opens its discovery for that consent. */
  consentId?: string | undefined;
  authAppId?: string | undefined;
};

/** The product's own sign-in page (/login, /): its own client unless the URL names one. */
export function pageSignInContext(search: string): TSignInContext {
  const params = new URLSearchParams(search);
  return {
    clientId: params.get('clientId')?.trim() || FIRST_PARTY_CLIENT_ID,
    authAppId: params.get('authAppId')?.trim() || undefined,
  };
}
