/*
 * The merchant's return URL (docs/merchant-clients.md "Return URL"): after the grant or a decline,
 * a standalone page sends the payer back to the merchant, with the consent's id and status in the
 * query, once the payer has seen the spec's screen. Embedded pages keep the message protocol.
 */

/** How long the Consent Granted or Declined screen stays before the payer is sent back. */
export const RETURN_DELAY_SECONDS = 5;

/** The statuses a payer is sent back with. */
export type TReturnStatus = 'granted' | 'declined';

/**
 * Where the page sends the payer: the return URL with `consentId` and `status` set in its query
 * (kept beside the merchant's own parameters); null when embedded or when the merchant gave none.
 */
export function returnAddress(
  returnUrl: string | null | undefined,
  embed: boolean,
  consent: { consentId: string; status: string },
): string | null {
  if (embed || !returnUrl || !URL.canParse(returnUrl)) return null;
  if (consent.status !== 'granted' && consent.status !== 'declined') return null;
  const address = new URL(returnUrl);
  address.searchParams.set('consentId', consent.consentId);
  address.searchParams.set('status', consent.status);
  return address.toString();
}

/** The merchant as the return texts name it: 'Merchant' without a name (as spec §2 does). */
export const returnMerchantName = (name: string | null | undefined): string =>
  name?.trim() || 'Merchant';

/** What the page says while it waits to send the payer back, and its two ways out. */
export const RETURN_TEXTS = {
  counting: (merchant: string, seconds: number) =>
    `Taking you back to ${merchant} in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
  going: (merchant: string) => `Taking you back to ${merchant}…`,
  stayed: (merchant: string) => `You can go back to ${merchant} when you are ready.`,
  returnNow: (merchant: string) => `Return to ${merchant}`,
  stay: 'Stay on this page',
} as const;
