// A settled consent's screens (granted, revoked, declined): a part of the consent page of their
// own (vite.config.ts FIRST_SCREEN_MODULES 'settled'), loaded before the page hydrates where the
// first screen is one of them, and otherwise once the page is usable (consent-page-screen.tsx).
export { ConsentDeclinedScreen } from './consent-declined-screen';
export { ConsentGrantedScreen } from './consent-granted-screen';
export { ConsentRevokedScreen } from './consent-revoked-screen';
