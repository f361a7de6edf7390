/** Consents the end-to-end server prepares in states no merchant call can reach yet (granted). */
export const GRANTED_CONSENT_KEY = 'e2e:granted';
