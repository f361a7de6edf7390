import { useEffect, useId, useReducer, useRef, useState, type FormEvent } from 'react';
import { BVN_CODE_LENGTH, BVN_LENGTH, maskedBvn } from '../../../domain/bvn';
import {
  BVN_FORM_INITIAL,
  bvnFormReducer,
  toBvnCode,
  type TBvnFormAction,
  type TBvnFormState,
} from '../../../domain/bvn-form';
import { BVN_CODE_SENT_MESSAGE } from '../../../domain/phone-code-texts';
import type { TVerifiedBvn } from '../../../domain/schemas/identity';
import { ApiError } from '../../api/api-error';
import type { TBvnVerificationProps } from '../../contracts/consent-slots';
import { identityApi, useBvnVerified } from '../../api/identity';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import './linking.css';

const failureOf = (error: unknown) => ({
  message: error instanceof Error && error.message ? error.message : null,
  code: error instanceof ApiError ? error.code : undefined,
});

/**
 * Runs the calls the BVN form's actions ask for. `step` moves the form's state (wherever it is
 * kept: the linking panel's reducer, or a form of its own) and answers the form after it, or null
 * when the action was refused (a second 'Verify' while one runs): then no call starts.
 */
export function useBvnRequests(
  step: (action: TBvnFormAction) => TBvnFormState | null,
  onVerified?: (bvn: TVerifiedBvn) => void,
) {
  const verified = useBvnVerified();
  return (action: TBvnFormAction) => {
    const next = step(action);
    if (!next) return;
    if (action.type === 'verify_requested') {
      const code = toBvnCode(action.code);
      if (next.phase !== 'enter_code' || !next.busy || !code) return;
      identityApi.verifyBvn({ code }).then(
        (answer) => {
          // The page knows the BVN before the form moves on: nothing asks for it again.
          if (answer.bvn) {
            verified(answer.bvn);
            onVerified?.(answer.bvn);
          }
          step({ type: 'verified', last4: answer.bvn?.last4 ?? '' });
        },
        (error: unknown) => step({ type: 'verify_failed', ...failureOf(error) }),
      );
      return;
    }
    const sending =
      (action.type === 'code_requested' && next.phase === 'enter_bvn' && next.busy) ||
      (action.type === 'resend_requested' && next.phase === 'enter_code' && next.resending);
    if (!sending) return;
    identityApi.sendBvnCode({ bvn: next.bvn }).then(
      () => step({ type: 'code_sent' }),
      (error: unknown) => step({ type: 'send_failed', ...failureOf(error) }),
    );
  };
}

type TBvnFormViewProps = {
  form: TBvnFormState;
  onAction(action: TBvnFormAction): void;
  /** The step's one way back: the panel's, or closing the form where it was opened. */
  onCancel?: (() => void) | undefined;
  /** Why the BVN is asked here, in a sentence. */
  reason?: string;
};

/**
 * 'Verify your BVN' (docs/identity.md "The BVN"): the BVN, 'Send code', then the code sent to
 * the phone the BVN is registered with if it is on record (the page is told no more: not the
 * phone, not whether the registry knows the BVN), 'Verify'. It draws the domain's form state; the
 * calls are its parent's (useBvnRequests).
 */
export function BvnFormView({ form, onAction, onCancel, reason }: TBvnFormViewProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [bvn, setBvn] = useState(form.phase === 'enter_bvn' ? form.bvn : '');
  const [code, setCode] = useState('');
  const phase = form.phase;
  // A screen reader and a keyboard start at the step's heading, and at its new field after.
  useEffect(() => {
    if (phase === 'enter_bvn' || phase === 'verified') heading.current?.focus();
  }, [phase]);

  if (form.phase === 'verified') {
    return (
      <div className="bvn-form" role="status">
        <h2 ref={heading} tabIndex={-1} className="section-title">
          BVN verified
        </h2>
        <p>Your BVN {maskedBvn(form.last4)} is verified.</p>
      </div>
    );
  }

  const errorId = `${id}-error`;
  const error = form.error ? (
    <div id={errorId} className="failure" role="alert">
      <p>{form.error}</p>
    </div>
  ) : null;
  const cancel = onCancel ? (
    <Button variant="link" onClick={onCancel} disabled={form.busy}>
      Cancel
    </Button>
  ) : null;

  if (form.phase === 'enter_bvn') {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      onAction({ type: 'code_requested', bvn });
    };
    return (
      <form className="bvn-form" onSubmit={submit} noValidate aria-busy={form.busy}>
        <h2 ref={heading} tabIndex={-1} className="section-title">
          Verify your BVN
        </h2>
        <p>
          {reason ??
            'Only accounts registered to your BVN can be linked or debited. We send a code to the phone your BVN is registered with.'}
        </p>
        <label htmlFor={`${id}-bvn`}>BVN</label>
        <input
          id={`${id}-bvn`}
          className="text-input"
          inputMode="numeric"
          autoComplete="off"
          maxLength={BVN_LENGTH}
          value={bvn}
          onChange={(event) => setBvn(event.target.value.replace(/\D/g, ''))}
          aria-invalid={form.error ? true : undefined}
          aria-describedby={form.error ? errorId : undefined}
        />
        {error}
        <div className="actions">
          <Button type="submit" disabled={form.busy} aria-busy={form.busy}>
            {form.busy ? (
              <>
                <Spinner small /> Sending...
              </>
            ) : (
              'Send code'
            )}
          </Button>
          {cancel}
        </div>
      </form>
    );
  }

  const working = form.busy || form.resending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAction({ type: 'verify_requested', code });
  };
  return (
    <form className="bvn-form" onSubmit={submit} noValidate aria-busy={working}>
      <h2 ref={heading} tabIndex={-1} className="section-title">
        Verify your BVN
      </h2>
      <p id={`${id}-sent`}>{BVN_CODE_SENT_MESSAGE}</p>
      <label htmlFor={`${id}-code`}>{BVN_CODE_LENGTH}-digit code</label>
      <input
        id={`${id}-code`}
        className="text-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={BVN_CODE_LENGTH}
        value={code}
        onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
        aria-invalid={form.error ? true : undefined}
        aria-describedby={[`${id}-sent`, form.error ? errorId : ''].filter(Boolean).join(' ')}
        // The code field is what the payer does next: the keyboard is already there.
        autoFocus
      />
      {error}
      {form.notice ? (
        <p className="secondary-text" role="status">
          {form.notice}
        </p>
      ) : null}
      <div className="actions">
        <Button type="submit" disabled={working} aria-busy={form.busy}>
          {form.busy ? (
            <>
              <Spinner small /> Verifying...
            </>
          ) : (
            'Verify'
          )}
        </Button>
        <Button
          variant="link"
          disabled={working}
          onClick={() => onAction({ type: 'resend_requested' })}
        >
          {form.resending ? 'Sending...' : 'Send again'}
        </Button>
        <Button variant="link" disabled={working} onClick={() => onAction({ type: 'change_bvn' })}>
          Change BVN
        </Button>
        {cancel}
      </div>
    </form>
  );
}

/** The BVN form on its own, where a screen other than the linking panel asks for the BVN. */
export function BvnVerification({ reason, onCancel, onVerified }: TBvnVerificationProps) {
  const [form, dispatch] = useReducer(bvnFormReducer, BVN_FORM_INITIAL);
  const current = useRef(form);
  const request = useBvnRequests((action) => {
    const next = bvnFormReducer(current.current, action);
    if (next === current.current) return null;
    current.current = next;
    dispatch(action);
    return next;
  }, onVerified);
  return <BvnFormView form={form} onAction={request} onCancel={onCancel} reason={reason} />;
}
