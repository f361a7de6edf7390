import { CONSENT_EXPIRY_MS } from './constants';

/** The expiresAt of a consent created at `now`: 24 h ahead, as an ISO string (spec §3, §9). */
export function consentExpiresAt(now: Date): string {
  return new Date(now.getTime() + CONSENT_EXPIRY_MS).toISOString();
}
