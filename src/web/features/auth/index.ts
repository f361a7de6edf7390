// Payer identity, as the app layer composes it: the sign-in page, the consent page's auth
// prompt, the session, and the page side of signed grants.
export { AuthPrompt } from './auth-prompt';
export { AuthenticatingOverlay, BiometricApprovalOverlay } from './authenticating-overlay';
export { LoginPage } from './login-page';
export { grantDigest, signGrant } from './sign-grant';
export { useSession, type TUseSession } from './use-session';
