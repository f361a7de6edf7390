import { consentPageView, hasSidePanel, type TConsentLoad } from '../../domain/consent-screen';
import { parsePageParams } from '../../domain/page-params';
import type { TFirstScreenPart, TPageAnswers } from './page-answers';

/**
 * The parts of the first screen drawn from these answers, as the page chooses its screen
 * (src/domain/consent-screen.ts) for a visitor (no session): the server preloads their code and
 * names them in the answers, and the page loads them before it hydrates what was drawn. Here,
 * not in page-answers.ts: the page's entry reads the answers without the domain's screen rules.
 */
export function firstScreenParts(
  answers: Omit<TPageAnswers, 'parts'>,
  search: string,
): TFirstScreenPart[] {
  const params = parsePageParams(search);
  const { consent } = answers;
  const load: TConsentLoad = !consent
    ? { state: 'pending' }
    : 'answer' in consent
      ? { state: 'loaded', consent: consent.answer.consent }
      : { state: 'failed', status: consent.failure.status, serverMessage: consent.failure.message };
  const { screen } = consentPageView({
    params,
    load,
    signedIn: false,
    productName: answers.publicConfig.productName,
  });
  const parts: TFirstScreenPart[] = [];
  if (screen.kind === 'pending-summary') parts.push('summary');
  if (screen.kind === 'auth-prompt') parts.push('auth-prompt');
  if (screen.kind === 'immediate-payment') parts.push('immediate-payment');
  if (hasSidePanel(params, screen)) parts.push('side-panel');
  if (screen.kind === 'granted' || screen.kind === 'revoked' || screen.kind === 'declined') {
    parts.push('settled');
  }
  return parts;
}
