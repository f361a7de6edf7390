// The keys of the calls the consent page's first screen is drawn from, in a module free of
// schemas: the page's entry seeds them with the answers the server sent (app/page-answers.ts)
// without loading zod.

/** GET /api/consent/{id}?clientId= (api/consent-calls.ts). */
export const consentQueryKey = (consentId: string, clientId: string) =>
  ['consent', consentId, clientId] as const;

/** GET /api/public-config (api/auth.ts). */
export const PUBLIC_CONFIG_QUERY_KEY = ['public-config'] as const;
