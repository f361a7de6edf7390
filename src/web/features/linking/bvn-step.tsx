import {
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { BVN_CODE_LENGTH, BVN_LENGTH, maskedBvn } from '../../../domain/bvn';
import {
  BVN_FORM_INITIAL,
  bvnFormReducer,
  toBvnCode,
  type TBvnFormAction,
  type TBvnFormState,
} from '../../../domain/bvn-form';
import { bvnCodeSentMessage, bvnMethodsIntro } from '../../../domain/bvn-code-texts';
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
    if (action.type === 'code_requested' && next.phase === 'enter_bvn' && next.busy) {
      identityApi.startBvnVerification({ bvn: next.bvn }).then(
        (answer) =>
          step({
            type: 'verification_opened',
            sender: answer.codeSender,
            methods: answer.methods,
          }),
        (error: unknown) => step({ type: 'open_failed', ...failureOf(error) }),
      );
      return;
    }
    const method =
      action.type === 'method_chosen' && next.phase === 'choose_method' && next.busy
        ? next.chosen
        : action.type === 'resend_requested' && next.phase === 'enter_code' && next.resending
          ? next.method
          : null;
    if (!method) return;
    identityApi.sendBvnCode({ method }).then(
      (answer) => step({ type: 'code_sent', message: answer.message }),
      (error: unknown) => step({ type: 'send_failed', ...failureOf(error) }),
    );
  };
}

/** The masked hint of the way the code went, as the registry offered it. */
const hintOf = (form: Extract<TBvnFormState, { phase: 'enter_code' }>) =>
  form.methods.find((method) => method.id === form.method)?.hint ?? '';

type TBvnFormViewProps = {
  form: TBvnFormState;
  onAction(action: TBvnFormAction): void;
  /** The step's one way back: the panel's, or closing the form where it was opened. */
  onCancel?: (() => void) | undefined;
  /** Why the BVN is asked here, in a sentence. */
  reason?: string;
};

/**
 * 'Verify your BVN' (docs/identity.md "The BVN"): the BVN and 'Continue'; the ways the registry
 * can send the code, each with its masked hint, under who sends it (NIBSS with Mono), and 'Send
 * code'; then the code, 'Verify', 'Send again' and 'Use another way'. It draws the domain's form
 * state; the calls are its parent's (useBvnRequests).
 */
export function BvnFormView({ form, onAction, onCancel, reason }: TBvnFormViewProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [bvn, setBvn] = useState(form.phase === 'enter_bvn' ? form.bvn : '');
  const [code, setCode] = useState('');
  const phase = form.phase;
  // A screen reader and a keyboard start at the step's heading, and at its new field after.
  useEffect(() => {
    if (phase !== 'enter_code') heading.current?.focus();
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
  // The heading is drawn here, where its ref is: a helper handed the ref might read it mid-render.
  const title = (
    <h2 ref={heading} tabIndex={-1} className="section-title">
      Verify your BVN
    </h2>
  );
  const cancel = onCancel ? (
    <Button variant="link" onClick={onCancel} disabled={form.busy}>
      Cancel
    </Button>
  ) : null;

  if (form.phase === 'enter_bvn') {
    return bvnEntryForm({
      form,
      onAction,
      reason,
      bvn,
      setBvn,
      id,
      title,
      error,
      errorId,
      cancel,
    });
  }

  if (form.phase === 'choose_method') {
    return (
      <BvnMethodChoice
        form={form}
        onAction={onAction}
        heading={heading}
        cancel={cancel}
        error={error}
        errorId={errorId}
      />
    );
  }

  return bvnCodeForm({ form, onAction, code, setCode, id, title, error, errorId, cancel });
}

/** What the BVN's and the code's forms share with the view: its ids, title, error and way back. */
type TBvnStepParts = {
  id: string;
  /** The step's heading, "Verify your BVN", where focus starts. */
  title: ReactNode;
  error: ReactNode;
  errorId: string;
  cancel: ReactNode;
};

// The BVN's and the code's forms are drawn by helpers, not components: they share one place in
// the view's tree, so a step back from the code to the BVN keeps the form's elements, not new ones.

/** The BVN and 'Continue'. */
function bvnEntryForm({
  form,
  onAction,
  reason,
  bvn,
  setBvn,
  id,
  title,
  error,
  errorId,
  cancel,
}: TBvnStepParts & {
  form: Extract<TBvnFormState, { phase: 'enter_bvn' }>;
  onAction(action: TBvnFormAction): void;
  reason: string | undefined;
  bvn: string;
  setBvn(bvn: string): void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAction({ type: 'code_requested', bvn });
  };
  return (
    <form className="bvn-form" onSubmit={submit} noValidate aria-busy={form.busy}>
      {title}
      <p>
        {reason ??
          'Only accounts registered to your BVN can be linked or debited. The BVN registry sends a code to a phone number or email address your BVN is registered with.'}
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
              <Spinner small /> Checking...
            </>
          ) : (
            'Continue'
          )}
        </Button>
        {cancel}
      </div>
    </form>
  );
}

/** The code, 'Verify', 'Send again', 'Use another way' (when there is one) and 'Change BVN'. */
function bvnCodeForm({
  form,
  onAction,
  code,
  setCode,
  id,
  title,
  error,
  errorId,
  cancel,
}: TBvnStepParts & {
  form: Extract<TBvnFormState, { phase: 'enter_code' }>;
  onAction(action: TBvnFormAction): void;
  code: string;
  setCode(code: string): void;
}) {
  const working = form.busy || form.resending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAction({ type: 'verify_requested', code });
  };
  return (
    <form className="bvn-form" onSubmit={submit} noValidate aria-busy={working}>
      {title}
      <p id={`${id}-sent`} role="status">
        {form.notice ?? bvnCodeSentMessage(form.sender, hintOf(form))}
      </p>
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
        {form.methods.length > 1 ? (
          <Button
            variant="link"
            disabled={working}
            onClick={() => onAction({ type: 'other_method' })}
          >
            Use another way
          </Button>
        ) : null}
        <Button variant="link" disabled={working} onClick={() => onAction({ type: 'change_bvn' })}>
          Change BVN
        </Button>
        {cancel}
      </div>
    </form>
  );
}

/**
 * The ways the registry can send the code, as radio buttons labelled with its masked hints (a
 * fieldset a screen reader reads as one question), under who sends the code; 'Send code'.
 */
function BvnMethodChoice({
  form,
  onAction,
  heading,
  cancel,
  error,
  errorId,
}: {
  form: Extract<TBvnFormState, { phase: 'choose_method' }>;
  onAction(action: TBvnFormAction): void;
  heading: RefObject<HTMLHeadingElement | null>;
  cancel: ReactNode;
  error: ReactNode;
  errorId: string;
}) {
  const id = useId();
  const [picked, setPicked] = useState(form.chosen ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAction({ type: 'method_chosen', method: picked });
  };
  return (
    <form className="bvn-form" onSubmit={submit} noValidate aria-busy={form.busy}>
      <h2 ref={heading} tabIndex={-1} className="section-title">
        Verify your BVN
      </h2>
      <fieldset
        className="bvn-methods"
        aria-describedby={[`${id}-intro`, form.error ? errorId : ''].filter(Boolean).join(' ')}
        disabled={form.busy}
      >
        <legend>Where should the code go?</legend>
        <p id={`${id}-intro`}>{bvnMethodsIntro(form.sender)}</p>
        {form.methods.map((method) => (
          <label key={method.id} className="bvn-method">
            <input
              type="radio"
              name={`${id}-method`}
              value={method.id}
              checked={picked === method.id}
              onChange={() => setPicked(method.id)}
            />
            <span>{method.hint}</span>
          </label>
        ))}
      </fieldset>
      {error}
      <div className="actions">
        <Button type="submit" disabled={form.busy || !picked} aria-busy={form.busy}>
          {form.busy ? (
            <>
              <Spinner small /> Sending...
            </>
          ) : (
            'Send code'
          )}
        </Button>
        <Button
          variant="link"
          disabled={form.busy}
          onClick={() => onAction({ type: 'change_bvn' })}
        >
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
