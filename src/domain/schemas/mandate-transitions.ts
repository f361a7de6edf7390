import type { MANDATE_STATES } from './account-link';

/*
 * The life of an account link's mandate (spec §4 panel; docs/accounts.md "Mandate states"): one
 * table of the moves a mandate may make, read by the server's one move function
 * (services/linking/link-lifecycle.ts moveLink), so no service changes a link's state by a rule
 * of its own.
 */

export type TMandateState = (typeof MANDATE_STATES)[number];

/** A link still waiting for its proof. */
export const OPEN_STATES = ['created', 'awaiting_authorisation'] as const satisfies TMandateState[];

/**
 * Every move a mandate may make: the states it leaves from and the one it reaches. A link is
 * created `created`, or `awaiting_authorisation` when the bank already has the payer's part (a
 * paper mandate).
 */
export const MANDATE_TRANSITIONS = {
  /** 'I've made the transfer' before the test transfer arrived: the bank is now awaited. */
  transferClaimed: { from: ['created'], to: 'awaiting_authorisation' },
  /** The test transfer arrived, the auth parameters were right, or the bank approved the form. */
  activate: { from: OPEN_STATES, to: 'active' },
  /** Its expiry passed first (seen when the link is next touched). */
  expire: { from: OPEN_STATES, to: 'expired' },
  /** The fifth wrong auth parameters, a provider that failed to open it, or a link made moot. */
  cancel: { from: OPEN_STATES, to: 'cancelled' },
  /**
   * A provider's own mandate (Remita's) whose future payments all ended (the payer's revocation,
   * the merchant's cancel, the payer's erasure): it debits nothing more, and its stop at the
   * provider is queued in the same transaction (services/linking/own-mandates.ts).
   */
  stop: { from: ['active'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly TMandateState[]; to: TMandateState }>;

export type TMandateEdge = keyof typeof MANDATE_TRANSITIONS;

/** Whether a link still waits for its proof (created or awaiting authorisation). */
export const isOpen = (state: TMandateState) => (OPEN_STATES as readonly string[]).includes(state);
