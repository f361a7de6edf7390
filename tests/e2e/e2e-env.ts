/** Where the end-to-end servers listen and the merchant client the tests act as. */
export const E2E = {
  appPort: 3917,
  appOrigin: 'http://localhost:3917',
  /** A second origin: a merchant page that embeds the consent page. */
  hostPort: 3918,
  hostOrigin: 'http://localhost:3918',
  /** An origin the merchant did not register. */
  strangerOrigin: 'http://127.0.0.1:3918',
  clientId: 'cli_e2e',
  clientSecret: 'sk_e2e_not_a_production_secret',
  otherClientId: 'cli_e2e_other',
  otherClientSecret: 'sk_e2e_other_not_a_production_secret',
  /** Signs payer tokens on the test server, so a test can make a genuinely expired one. */
  tokenSecret: 'e2e-token-secret-not-for-production-0123456789',
} as const;
