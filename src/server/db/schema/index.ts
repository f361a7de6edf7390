// The whole database schema, as Drizzle and drizzle-kit read it (drizzle.config.ts).
export * from './consents';
export * from './identity';
export * from './events';
export * from './money';
export * from './sandbox';
export * from './accounts';
export * from './webhooks';
export * from './forms';
export * from './collections';
export * from './refunds';
export * from './notices';
export * from './dashboard';
export * from './terminals';
export * from './provider-references';
export * from './payer-rights';
