import { useEffect, useMemo, useRef } from 'react';
import { AUTH_PROMPT_BACK, authPromptItems, authPromptPaid } from '../../../domain/auth-prompt';
import type { TAuthPromptScreenProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { MerchantLogo } from '../../ui/merchant-logo';
import { usePasskeySupport } from '../../ui/use-passkey-support';
import { preloadable } from '../../ui/preloadable';
import { PartBoundary } from '../../ui/part-boundary';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import type { TSignInContext } from './sign-in-context';
import { SignInPanel } from './sign-in-panel';
import './auth.css';

// Shown only where passkeys do not work (an app's browser).
const NoPasskeyNotice = preloadable(() =>
  import('../../ui/no-passkey-notice').then((module) => module.NoPasskeyNotice),
);

/**
 * spec §2 Auth prompt: the counterparty, 'uses {product} to authenticate users', what they
 * would like to do, and 'Authenticate'. Shown when spec §6 says (the consent page's screen
 * choice, src/domain/consent-screen.ts). Works inside the merchant's iframe when the frame allows
 * publickey-credentials-get (and -create for sign-up). Loaded only when first shown.
 */
export function AuthPrompt({
  consent,
  productName,
  params,
  paymentMade = false,
  onAuthenticated,
  onBack,
}: TAuthPromptScreenProps) {
  // Opened by the payer's own 'Sign In': the focus comes with them, onto the prompt.
  const card = useRef<HTMLElement>(null);
  const asked = onBack !== undefined;
  useEffect(() => {
    if (asked) card.current?.focus();
  }, [asked]);
  const context = useMemo<TSignInContext>(
    () => ({
      // The consent page only renders with a clientId (spec §2 Missing Client ID screen).
      clientId: params.clientId ?? '',
      consentId: consent.consentId,
      authAppId: params.authAppId ?? consent.authAppId ?? undefined,
    }),
    [params.clientId, params.authAppId, consent.consentId, consent.authAppId],
  );
  const passkeys = usePasskeySupport();
  const items = authPromptItems(consent, paymentMade);
  const paid = authPromptPaid(consent, paymentMade);
  const { counterparty } = consent;

  const intro = (
    <>
      <h1 id={SCREEN_TITLE_ID} className="visually-hidden">
        {counterparty.name} - Consent Request
      </h1>
      <div className="auth-counterparty">
        <MerchantLogo name={counterparty.name} image={counterparty.image} />
        <p>
          <span className="name">{counterparty.name}</span>{' '}
          <span className="muted">uses {productName} to authenticate users</span>
        </p>
      </div>
      {paid ? (
        <p className="auth-paid">
          <span aria-hidden="true">✓ </span>
          {paid}
        </p>
      ) : null}
      {items.length > 0 ? (
        <>
          <h2 className="section-title">They would like to:</h2>
          <ul className="list">
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </>
      ) : paid ? null : (
        // A consent that only asks for a form lists nothing: say why sign-in is needed instead.
        <div>
          <h2 className="auth-heading">Authentication Required</h2>
          <p className="auth-lead">This consent requires authentication to proceed</p>
        </div>
      )}
      {passkeys.usable ? null : (
        <PartBoundary loading={null}>
          <NoPasskeyNotice kind={passkeys.kind} />
        </PartBoundary>
      )}
    </>
  );

  return (
    <section
      ref={card}
      className="card-body auth-card"
      aria-label={`Sign in for ${counterparty.name}`}
      tabIndex={asked ? -1 : undefined}
    >
      <SignInPanel
        context={context}
        passkeyLabel="Authenticate"
        passkeys={passkeys.usable}
        intro={intro}
        screenTitleId={SCREEN_TITLE_ID}
        onSignedIn={onAuthenticated}
      />
      {onBack ? (
        <Button variant="link" onClick={onBack}>
          {AUTH_PROMPT_BACK}
        </Button>
      ) : null}
    </section>
  );
}
