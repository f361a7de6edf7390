import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import {
  canPayWithoutSignature,
  closesConsentError,
  CONSENT_ERROR_CLOSE,
  showsConsentOrDecline,
  type TConsentFlowState,
  type TFlowButton,
} from '../../../domain/consent-flow';
import { WITHDRAW_NOTE } from '../../../domain/withdraw-note';
import type { TConsentScreens } from '../../contracts/consent-slots';
import { BusyOverlay } from '../../ui/busy-overlay';
import { Button } from '../../ui/button';
import { ReportAndCloseButton } from './report-and-close';
import type { TAct } from './use-consent-flow';

/** The grant's ways in and out: how the flow asks, retries and reports it. */
export type TGrantControls = {
  state: TConsentFlowState;
  act: TAct;
  grant(): Promise<void>;
  grantButton: RefObject<HTMLButtonElement | null>;
  closeError(): void;
};

/** The button under the open step ('Next', 'Consent' or 'OneTap'), and 'back' to the schedule. */
export function flowActions(
  button: TFlowButton,
  { state, act, grant, grantButton }: TGrantControls,
) {
  return button ? (
    <div className="flow-actions">
      {button.action === 'grant' ? <WithdrawNote /> : null}
      <Button
        ref={button.action === 'grant' ? grantButton : undefined}
        disabled={button.disabled}
        onClick={() => (button.action === 'grant' ? void grant() : act({ type: 'step_confirmed' }))}
      >
        {button.button.label}
        {button.button.variant === 'onetap' ? (
          <span className="onetap-account"> {button.button.maskedAccount}</span>
        ) : null}
      </Button>
      {state.current === 'future_payments' && state.futureView === 'accounts' ? (
        <Button variant="link" onClick={() => act({ type: 'schedule_back' })}>
          back
        </Button>
      ) : null}
    </div>
  ) : null;
}

type TDecline = { declining: boolean; declineError: string | null; decline(): Promise<void> };

/** 'Consent' and 'Decline' under the steps, and why a decline failed. */
export function declineActions(
  { state, grant, grantButton }: TGrantControls,
  { declining, declineError, decline }: TDecline,
) {
  return (
    <div className="flow-actions">
      {showsConsentOrDecline(state) ? (
        <>
          <WithdrawNote />
          <Button ref={grantButton} onClick={() => void grant()}>
            Consent
          </Button>
        </>
      ) : null}
      <Button variant="secondary" disabled={declining} onClick={() => void decline()}>
        Decline
      </Button>
      {declineError ? (
        <p className="form-error" role="alert">
          {declineError}
        </p>
      ) : null}
    </div>
  );
}

/** Over the flow while the grant is under way, and the Consent Error modal when it failed. */
export function grantOverlays(
  controls: TGrantControls,
  {
    embed,
    screens,
    onReport,
  }: { embed: boolean; screens: TConsentScreens; onReport(error: string): void },
) {
  const { state, act, grant, closeError } = controls;
  return (
    <>
      {state.grant === 'signing' ? (
        <BusyOverlay title="Getting your biometric approval..." />
      ) : null}
      {state.grant === 'processing' ? <BusyOverlay title="Processing consent..." /> : null}
      {state.grant === 'completing' ? <BusyOverlay title="Completing consent..." /> : null}
      {state.grant === 'failed' && state.error ? (
        <ConsentErrorModal
          message={state.error}
          embed={embed}
          onRetry={closeError}
          // Without a passkey, or with one that must wait, another try fails the same: the offers
          // below replace it.
          canRetry={
            state.signatureBlock !== 'no_passkey' && state.signatureBlock !== 'passkey_waiting'
          }
          closable={closesConsentError(state)}
          onReport={() => onReport(state.error ?? '')}
        >
          {state.signatureBlock === 'no_passkey' || state.signatureBlock === 'not_on_device' ? (
            <screens.AddPasskey
              onDone={(created) => {
                if (!created) return closeError();
                // Signs at once, or asks what it may not sign yet: then the modal says until when.
                const next = act({ type: 'passkey_created', ...created, now: new Date() });
                if (next.grant === 'idle') void grant();
              }}
            />
          ) : null}
          {canPayWithoutSignature(state) ? (
            <>
              <p>
                Meanwhile, pay the immediate payment by transfer or card: that needs no passkey.
              </p>
              {/* What the payer can do today: the modal's main action. */}
              <Button onClick={() => act({ type: 'pay_without_signature' })}>
                Pay by Transfer or Card
              </Button>
            </>
          ) : null}
        </ConsentErrorModal>
      ) : null}
    </>
  );
}

/**
 * Before 'Consent' or 'OneTap': the consent can be withdrawn at any time, and where (the same
 * line is in the grant's record, domain/consent-record.ts). 'Your consents' opens beside
 * the consent, which keeps its place, as the header's link to it does.
 */
function WithdrawNote() {
  return (
    <p className="withdraw-note">
      {WITHDRAW_NOTE.before}
      <a href={WITHDRAW_NOTE.href} target="_blank" rel="noopener">
        {WITHDRAW_NOTE.link}
      </a>
      {WITHDRAW_NOTE.after}
    </p>
  );
}

/** The Consent Error modal (spec §2): the message, 'Try Again', 'Report & Close' (embed only). */
function ConsentErrorModal({
  message,
  embed,
  onRetry,
  onReport,
  canRetry = true,
  closable = false,
  children,
}: {
  message: string;
  embed: boolean;
  /** 'Try Again', 'Close' and Escape: back to the consent, where the grant can be asked again. */
  onRetry(): void;
  canRetry?: boolean;
  /** 'Close', where 'Try Again' is withheld and nothing else would leave the modal. */
  closable?: boolean;
  onReport(): void;
  /** A way forward besides 'Try Again' (a passkey to create, another way to pay). */
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  // What the modal offers changed under the focus (a passkey created, then the wait): the focus
  // stays in the modal, on its first control, not on the page behind it.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.contains(document.activeElement)) {
      dialog.querySelector<HTMLElement>('button, a[href], input')?.focus();
    }
  }, [message, closable]);
  return (
    <dialog
      ref={ref}
      className="consent-error"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onRetry();
      }}
    >
      <h2 id={titleId}>Consent Error</h2>
      <p role="alert">{message}</p>
      {children}
      <div className="flow-actions">
        {canRetry ? <Button onClick={onRetry}>Try Again</Button> : null}
        {closable ? (
          <Button variant="secondary" onClick={onRetry}>
            {CONSENT_ERROR_CLOSE}
          </Button>
        ) : null}
        {embed ? <ReportAndCloseButton label="Report & Close" onReport={onReport} /> : null}
      </div>
    </dialog>
  );
}
