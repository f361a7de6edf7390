import { useId, useState, type FormEvent } from 'react';
import { maskAccountNumber } from '../../../domain/account-row';
import type { TLinkingAccount, TLinkingPanelState } from '../../../domain/linking-panel';
import { formatNaira } from '../../../domain/money';
import type { TAccountLink, TAuthParam } from '../../../domain/schemas/account-link';
import {
  verificationFieldError,
  verificationMaxLength,
  verificationPlaceholder,
} from '../../../domain/verification-form';
import { Button } from '../../ui/button';
import { CopyRow, DetailRow } from '../../ui/copy-row';
import { Spinner } from '../../ui/spinner';

/** The account being linked, by its bank and last 4 digits only (spec §2 payment). */
export function LinkingAccountLine({ account }: { account: TLinkingAccount }) {
  return (
    <p className="linking-account">
      <strong>{account.bankName}</strong>{' '}
      <span className="secondary-text">
        {account.accountName ? `${account.accountName} · ` : ''}
        {maskAccountNumber(account.accountNumber ?? '')}
      </span>
    </p>
  );
}

type TPaymentStepProps = {
  account: TLinkingAccount;
  accountLink: TAccountLink;
  notice: string | null;
  confirming: boolean;
  onConfirm(): void;
  onCancel(): void;
};

/**
 * 'Complete Account Linking' (spec §2 payment): the test transfer to make, a 'Payment Status'
 * box when it has not arrived, and "I've made the transfer" ('Confirming...' while it is checked).
 */
export function PaymentStep({
  account,
  accountLink,
  notice,
  confirming,
  onConfirm,
  onCancel,
}: TPaymentStepProps) {
  const payIn = accountLink.payInDetails;
  return (
    <div className="linking-payment" aria-busy={confirming}>
      <h2 className="section-title">
        {confirming ? 'Confirming Payment' : 'Complete Account Linking'}
      </h2>
      <LinkingAccountLine account={account} />
      {payIn ? (
        <>
          <p>
            To prove this account is yours, transfer {formatNaira(payIn.amount)} from it to the
            account below. It is refunded at once.
          </p>
          <dl className="copy-details">
            <CopyRow
              label="Amount"
              value={(payIn.amount / 100).toFixed(2)}
              shown={formatNaira(payIn.amount)}
            />
            <CopyRow label="Account number" value={payIn.accountNumber} />
            <DetailRow label="Account name" value={payIn.beneficiary} />
            <DetailRow label="Bank" value={payIn.bankName} />
          </dl>
        </>
      ) : null}
      {notice ? (
        <div className="failure" role="alert">
          <strong>Payment Status</strong>
          <p>{notice}</p>
          <p className="hint">
            Please try again after a few minutes, or contact support if the issue persists.
          </p>
        </div>
      ) : null}
      {confirming ? (
        <p className="loading-line" role="status">
          <Spinner small /> Confirming payment...
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={onConfirm} disabled={confirming} aria-busy={confirming}>
          {confirming ? 'Confirming...' : "I've made the transfer"}
        </Button>
        <Button variant="link" onClick={onCancel} disabled={confirming}>
          cancel
        </Button>
      </div>
    </div>
  );
}

type TVerificationFormProps = {
  authParams: readonly TAuthParam[];
  busy: boolean;
  error: string | null;
  onVerify(answers: Array<{ param1: string; value: string }>): void;
  onBack(): void;
};

/** The fields of the auth parameters: each pair is two labelled inputs (spec §2). */
const fieldsOf = (authParams: readonly TAuthParam[]) =>
  authParams.flatMap((pair) => [
    { param: pair.param1, label: pair.label1, description: pair.description1 },
    ...(pair.param2 && pair.label2
      ? [{ param: pair.param2, label: pair.label2, description: pair.description2 }]
      : []),
  ]);

/**
 * 'Complete Account Verification' (spec §2, §5): the alternate service's questions, every one
 * required, with the spec's placeholders and lengths.
 */
export function VerificationForm({
  authParams,
  busy,
  error,
  onVerify,
  onBack,
}: TVerificationFormProps) {
  const id = useId();
  const fields = fieldsOf(authParams);
  const [values, setValues] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const errorOf = (field: (typeof fields)[number]) =>
    submitted ? verificationFieldError(field.label, values[field.param] ?? '') : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (fields.some((field) => verificationFieldError(field.label, values[field.param] ?? ''))) {
      return;
    }
    onVerify(
      fields.map((field) => ({ param1: field.param, value: (values[field.param] ?? '').trim() })),
    );
  };

  return (
    <form className="verification-form" onSubmit={submit} noValidate>
      <h2 className="section-title">Complete Account Verification</h2>
      {fields.map((field, index) => {
        const fieldError = errorOf(field);
        const inputId = `${id}-${index}`;
        return (
          <div key={field.param} className="field">
            <label htmlFor={inputId}>{field.label}</label>
            {field.description ? (
              <span id={`${inputId}-hint`} className="secondary-text">
                {field.description}
              </span>
            ) : null}
            <input
              id={inputId}
              className="text-input"
              autoComplete="off"
              inputMode={/^(CARD|OTP)$/i.test(field.param) ? 'numeric' : 'text'}
              placeholder={verificationPlaceholder(field.param)}
              maxLength={verificationMaxLength(field.param)}
              required
              value={values[field.param] ?? ''}
              onChange={(event) =>
                setValues((current) => ({ ...current, [field.param]: event.target.value }))
              }
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={
                [field.description ? `${inputId}-hint` : '', fieldError ? `${inputId}-error` : '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
            />
            {fieldError ? (
              <p id={`${inputId}-error`} className="form-error">
                {fieldError}
              </p>
            ) : null}
          </div>
        );
      })}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? (
            <>
              <Spinner small /> Verifying...
            </>
          ) : (
            'Verify Account'
          )}
        </Button>
        <Button variant="link" onClick={onBack} disabled={busy}>
          Back
        </Button>
      </div>
    </form>
  );
}

type TLinkingProgressProps = {
  state: Extract<TLinkingPanelState, { step: 'linking' }>;
  onReconnect(): void;
  onCancel(): void;
};

/**
 * 'Processing Account Linking' (spec §2 linking), or the wait for 3-D Secure in another tab
 * with Reconnect (the stream opened anew) and a cancel link.
 */
export function LinkingProgress({ state, onReconnect, onCancel }: TLinkingProgressProps) {
  const awaiting3ds = state.phase === 'awaiting_3ds';
  return (
    <div className="linking-progress" aria-busy="true">
      <h2 className="section-title">
        {awaiting3ds ? 'Awaiting 3D Secure Authentication' : 'Processing Account Linking'}
      </h2>
      <p>
        {awaiting3ds
          ? 'Please complete the authentication in the new tab, then return here...'
          : 'Please wait while we link your account...'}
      </p>
      <progress
        className="linking-bar"
        max={100}
        value={state.progress}
        aria-label={state.progressText ?? 'Linking progress'}
      />
      <p className="loading-line" role="status">
        {/* While the link is made the bank checks the account's holder (spec §2 overlay). */}
        <Spinner small /> {state.progressText ?? 'Validating account...'}
      </p>
      {state.phase !== 'creating_link' ? (
        <div className="actions">
          <Button variant="secondary" onClick={onReconnect}>
            Reconnect
          </Button>
          <Button variant="link" onClick={onCancel}>
            cancel
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** 'Account Linked Successfully!' (spec §2 success). */
export function LinkingSuccess() {
  return (
    <div className="linking-result" role="status">
      <span className="result-mark done" aria-hidden="true">
        ✓
      </span>
      <h2 className="section-title">Account Linked Successfully!</h2>
      <p>Your account has been linked and is ready for future payments.</p>
    </div>
  );
}

/** 'Account Linking Failed' with the reason and Back (spec §2 error). */
export function LinkingError({ message, onBack }: { message: string; onBack(): void }) {
  return (
    <div className="linking-result" role="alert">
      <span className="result-mark failed" aria-hidden="true">
        ✗
      </span>
      <h2 className="section-title">Account Linking Failed</h2>
      <p>{message}</p>
      <div className="actions">
        <Button onClick={onBack} autoFocus>
          Back
        </Button>
      </div>
    </div>
  );
}
