import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { passkeySkipCost } from '../../../domain/passkey-offer';
import { formatLagosDateTime } from '../../../domain/payment-date';
import { Button } from '../../ui/button';
import { AuthenticatingOverlay } from './authenticating-overlay';
import { createPasskey, savePasskey, type TCreatedPasskey } from './passkey-sign-in';
import { isCeremonyCancelled, signInErrorMessage } from './sign-in-errors';
import { StepHeading } from './step-heading';

type TCreatePasskeyStepProps = {
  token: string;
  /** True right after sign-up: the wording welcomes; otherwise it offers one more device. */
  newAccount: boolean;
  /** What the offer says instead of the sign-in's 'Next time, sign in with …'. */
  lead?: string;
  /**
   * The payer's passkeys as the code sign-in counted them: given, 'Not now' says what skipping
   * costs (passkeySkipCost), where it costs something.
   */
  passkeyCount?: number;
  /**
   * Whether the step says itself from when a passkey kept without approval may approve payments;
   * false where the screen around it says so, with what the payer can do meanwhile (the grant's
   * Consent Error modal): `onDone` then comes at once.
   */
  saysWait?: boolean;
  /**
   * Created or not; `signsFrom` when it was kept without approval and may approve payments and
   * mandates only from then (docs/identity.md "When a passkey is trusted").
   */
  onDone(passkeyCreated: boolean, signsFrom?: string): void;
  /** The screen's title id, where the step is the whole screen (StepHeading). */
  screenTitleId?: string | undefined;
};

/**
 * Where the step stands (docs/identity.md "When a passkey is trusted"): offering a passkey;
 * created, asking one the payer already has to approve it; or kept without approval, saying
 * from when it may approve payments.
 */
type TStep =
  | { kind: 'offer' }
  | { kind: 'approve'; created: TCreatedPasskey }
  | { kind: 'waiting'; signsFrom: string };

/**
 * The last step of sign-up, and an offer after a code sign-in on a device with no passkey:
 * create a passkey so the next sign-in is biometric. On an account in use, another of the payer's
 * passkeys approves it, or it waits 24 h before it may approve payments.
 */
export function CreatePasskeyStep(props: TCreatePasskeyStepProps) {
  const { token, newAccount, passkeyCount, saysWait = true, onDone } = props;
  const creation = usePasskeyCreation(token, saysWait, onDone);
  const heading = useStepHeadingFocus(creation.step.kind);
  const costId = useId();
  const skipCost =
    passkeyCount === undefined ? null : passkeySkipCost({ newAccount, passkeyCount });
  const errorLine = creation.error ? (
    <p className="auth-error" role="alert">
      {creation.error}
    </p>
  ) : null;
  const { step } = creation;
  if (step.kind === 'waiting') return waitingStep(props, heading, step.signsFrom);
  if (step.kind === 'approve')
    return approveStep(props, heading, creation, step.created, errorLine);
  return offerStep(props, creation, errorLine, skipCost, costId);
}

/** A new step's heading takes the focus, so a screen reader reads where the payer now is. */
function useStepHeadingFocus(kind: TStep['kind']) {
  const heading = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    heading.current?.focus();
  }, [kind]);
  return heading;
}

/** The step's state and its two calls: create the passkey, then have it approved or not. */
function usePasskeyCreation(
  token: string,
  saysWait: boolean,
  onDone: TCreatePasskeyStepProps['onDone'],
) {
  const [step, setStep] = useState<TStep>({ kind: 'offer' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (created: TCreatedPasskey, approve: boolean) => {
    const saved = await savePasskey(created, approve);
    if (saved.approval === 'none' && saysWait) {
      setBusy(false);
      setStep({ kind: 'waiting', signsFrom: saved.signsFrom });
    } else if (saved.approval === 'none') {
      onDone(true, saved.signsFrom);
    } else {
      onDone(true);
    }
  };

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await createPasskey(token);
      if (created.approval.needed && created.approval.allowCredentials.length > 0) {
        setBusy(false);
        setStep({ kind: 'approve', created });
        return;
      }
      await save(created, false);
    } catch (cause) {
      setError(
        isCeremonyCancelled(cause)
          ? 'No passkey was created. You can try again, or do it later.'
          : signInErrorMessage(cause),
      );
      setBusy(false);
    }
  };

  const approveOrNot = async (created: TCreatedPasskey, approve: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await save(created, approve);
    } catch (cause) {
      setError(
        isCeremonyCancelled(cause)
          ? 'Your other passkey did not approve this one. Try again, or continue without approval.'
          : signInErrorMessage(cause),
      );
      setBusy(false);
    }
  };

  return { step, busy, error, create, approveOrNot };
}

type TPasskeyCreation = ReturnType<typeof usePasskeyCreation>;

/** Kept without approval: it signs in now, and approves payments from the time said. */
function waitingStep(
  { screenTitleId, onDone }: TCreatePasskeyStepProps,
  heading: RefObject<HTMLHeadingElement | null>,
  signsFrom: string,
): ReactNode {
  return (
    <div className="auth-form">
      <StepHeading screenTitleId={screenTitleId} ref={heading}>
        Passkey created
      </StepHeading>
      <p className="auth-lead">
        It signs you in from now on. No other passkey of yours approved it, so it can approve
        payments and mandates from {formatLagosDateTime(signsFrom)}.
      </p>
      <p className="muted">We sent an SMS about it to your number.</p>
      <div className="actions">
        <Button onClick={() => onDone(true, signsFrom)}>Continue</Button>
      </div>
    </div>
  );
}

/** Created: one of the payer's passkeys may approve it, or it goes on without approval. */
function approveStep(
  { screenTitleId }: TCreatePasskeyStepProps,
  heading: RefObject<HTMLHeadingElement | null>,
  { busy, approveOrNot }: TPasskeyCreation,
  created: TCreatedPasskey,
  errorLine: ReactNode,
): ReactNode {
  return (
    <div className="auth-form">
      <StepHeading screenTitleId={screenTitleId} ref={heading}>
        Approve your new passkey
      </StepHeading>
      <p className="auth-lead">
        Approve it with a passkey you already have, on this device or on your other phone or laptop,
        so that it can approve payments at once.
      </p>
      <p className="muted">
        Without approval it signs you in, and can approve payments and mandates 24 hours after it is
        added.
      </p>
      {errorLine}
      <div className="actions">
        <Button onClick={() => void approveOrNot(created, true)} disabled={busy}>
          Approve with my other passkey
        </Button>
        <Button
          variant="secondary"
          onClick={() => void approveOrNot(created, false)}
          disabled={busy}
        >
          Continue without approval
        </Button>
      </div>
      {busy ? <AuthenticatingOverlay /> : null}
    </div>
  );
}

/** The offer: 'Create passkey', or 'Not now' with what skipping costs, where it costs something. */
function offerStep(
  { screenTitleId, newAccount, lead, onDone }: TCreatePasskeyStepProps,
  { busy, create }: TPasskeyCreation,
  errorLine: ReactNode,
  skipCost: string | null,
  costId: string,
): ReactNode {
  return (
    <div className="auth-form">
      <StepHeading screenTitleId={screenTitleId}>
        {newAccount ? 'Create your passkey' : 'Create a passkey on this device'}
      </StepHeading>
      <p className="auth-lead">
        {lead ?? 'Next time, sign in with your fingerprint, face or screen lock. No code needed.'}
      </p>
      {errorLine}
      <div className="actions">
        <Button onClick={() => void create()} disabled={busy}>
          Create passkey
        </Button>
        <Button
          variant="secondary"
          onClick={() => onDone(false)}
          disabled={busy}
          aria-describedby={skipCost ? costId : undefined}
        >
          Not now
        </Button>
      </div>
      {skipCost ? (
        <p className="muted" id={costId}>
          {skipCost}
        </p>
      ) : null}
      {busy ? <AuthenticatingOverlay /> : null}
    </div>
  );
}
