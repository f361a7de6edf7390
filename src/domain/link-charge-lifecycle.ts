/*
 * The life of a card link's test charge (spec §9; docs/accounts.md "Linking by card"): one table
 * of the moves the charge may make, read by the server's one move function
 * (services/linking/link-charge-moves.ts moveLinkCharge), so no service changes a charge's stage
 * by a rule of its own. The link's mandate has its own table (schemas/mandate-transitions.ts); a
 * link is opened `created` with its charge 'charging', and the charge ends when the link does.
 *
 * The stages, kept in account_links.charge_stage while the charge is open:
 * - 'charging': the card network has the charge (or the payer's answer to it) and has not
 *   answered; one left so too long was lost with its process, and is asked about (by the payer's
 *   next attempt past STALE_CHARGE_MS, by the reconciler past RECONCILE_AFTER_MS).
 * - 'awaiting_otp': the issuer asked for an OTP, which reaches the network only through us.
 * - 'awaiting_3ds': the issuer asked for a 3-D Secure check in the payer's browser, answered at
 *   the network and told by its notice or a requery.
 * and 'ended' (the column null): linked, failed, superseded or expired; whether its money is back
 * is the link's charge_settled_at, not a stage.
 */

/** Where an open card link's test charge waits: at the network, or for the payer. */
export const CARD_LINK_CHARGE_STAGES = ['charging', 'awaiting_otp', 'awaiting_3ds'] as const;

export type TLinkChargeStage = (typeof CARD_LINK_CHARGE_STAGES)[number];

/** A charge's stage, or its end: the column holds null once it ended. */
export type TLinkChargeState = TLinkChargeStage | 'ended';

/**
 * Every move a card link's test charge may make: the stages it leaves from and the state it
 * reaches. An ended charge never moves again (no edge leaves 'ended').
 */
export const LINK_CHARGE_TRANSITIONS = {
  /**
   * The issuer asks the payer for an OTP: in the charge's answer, or in the requery of a charge
   * whose answer was lost with its process.
   */
  askOtp: { from: ['charging'], to: 'awaiting_otp' },
  /** The issuer asks the payer for a 3-D Secure check, answered or requeried the same ways. */
  ask3ds: { from: ['charging'], to: 'awaiting_3ds' },
  /**
   * The payer's OTP is taken to the network: one request takes the waiting charge, a second finds
   * it taken.
   */
  takeOtp: { from: ['awaiting_otp'], to: 'charging' },
  /**
   * The 3-D Secure check's result is taken: the network's word on it (its notice, the
   * reconciler's or a new attempt's requery), or the sandbox's check page answered with no notice
   * taken, left charging for the reconciler.
   */
  takeThreeDsResult: { from: ['awaiting_3ds'], to: 'charging' },
  /** The network took the charge, it was given back, and the card linked: the link is active. */
  link: { from: ['charging'], to: 'ended' },
  /**
   * The charge ended without linking, with its link: refused or failed at the network, superseded
   * by the payer's next attempt, or its link expired.
   */
  end: { from: CARD_LINK_CHARGE_STAGES, to: 'ended' },
} as const satisfies Record<string, { from: readonly TLinkChargeStage[]; to: TLinkChargeState }>;

export type TLinkChargeEdge = keyof typeof LINK_CHARGE_TRANSITIONS;
