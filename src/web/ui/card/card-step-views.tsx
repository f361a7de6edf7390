import {
  useEffect,
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type MouseEvent,
} from 'react';
import { OTP_LENGTH, OTP_RETRY_AFTER_MS } from '../../../domain/constants';
import { THREE_DS_TEXTS, type TThreeDsOpening } from '../../../domain/in-app-browser';
import { canSubmitOtp, isBankTokenRequest, sanitizeOtpInput } from '../../../domain/otp-input';
import { replacePhoneNumberPlaceholder } from '../../../domain/phone-number-placeholder';
import { Button } from '../button';
import { Spinner } from '../spinner';
import { useThreeDsOpening } from './three-ds-opening';
import './card.css';

type TOtpViewProps = {
  displayMessage: string;
  verifying: boolean;
  error: string | null;
  onVerify(otp: string): void;
  /** 'Try Again' and 'Retry Payment': back to the card's details. */
  onRetry(): void;
};

/** Seconds until 'Try Again' shows (spec §4: after 15 s, counting down). */
function useRetryCountdown(verifying: boolean): number {
  const [left, setLeft] = useState(OTP_RETRY_AFTER_MS / 1_000);
  useEffect(() => {
    // A check in flight starts the wait again (spec §4: the countdown resets when loading).
    if (verifying) {
      const reset = setTimeout(() => setLeft(OTP_RETRY_AFTER_MS / 1_000), 0);
      return () => clearTimeout(reset);
    }
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1_000);
    return () => clearTimeout(timer);
  }, [left, verifying]);
  return left;
}

/** The OTP's boxes, one per digit: a typed digit moves on, a pasted (or filled) code fills them. */
function useOtpDigits() {
  const [digits, setDigits] = useState<string[]>(() =>
    Array.from({ length: OTP_LENGTH }, () => ''),
  );
  const boxes = useRef<Array<HTMLInputElement | null>>([]);

  const fill = (from: number, text: string) => {
    const typed = sanitizeOtpInput(text);
    if (!typed) return;
    setDigits((current) => {
      const next = [...current];
      for (let i = 0; i < typed.length && from + i < OTP_LENGTH; i += 1)
        next[from + i] = typed[i] ?? '';
      return next;
    });
    boxes.current[Math.min(from + typed.length, OTP_LENGTH - 1)]?.focus();
  };

  const typeAt = (index: number, text: string) => {
    const value = sanitizeOtpInput(text);
    if (value.length > 1) fill(index, value);
    else {
      setDigits((current) => current.map((d, i) => (i === index ? value : d)));
      if (value) boxes.current[index + 1]?.focus();
    }
  };

  return { digits, boxes, fill, typeAt };
}

type TOtpBoxesProps = {
  /** The id of the bank's message, which describes the boxes. */
  messageId: string;
  otpDigits: ReturnType<typeof useOtpDigits>;
};

/** 'Enter OTP' as one box per digit. */
function OtpBoxes({ messageId, otpDigits }: TOtpBoxesProps) {
  const { digits, boxes, fill, typeAt } = otpDigits;
  return (
    <fieldset className="otp-boxes" aria-describedby={messageId}>
      <legend>Enter OTP</legend>
      {digits.map((digit, index) => (
        <input
          // The boxes are positions, fixed in number: the index is their identity.
          key={index}
          ref={(element) => {
            boxes.current[index] = element;
          }}
          className="otp-box"
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={`Digit ${index + 1} of ${OTP_LENGTH}`}
          maxLength={OTP_LENGTH}
          value={digit}
          onChange={(event) => typeAt(index, event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Backspace' && !digit) boxes.current[index - 1]?.focus();
          }}
          onPaste={(event: ClipboardEvent<HTMLInputElement>) => {
            event.preventDefault();
            fill(0, event.clipboardData.getData('text'));
          }}
        />
      ))}
    </fieldset>
  );
}

type TOtpActionsProps = {
  /** The OTP typed is whole. */
  ready: boolean;
  verifying: boolean;
  error: string | null;
  /** Seconds until 'Try Again' shows. */
  left: number;
  onRetry(): void;
};

/** 'Verify OTP', 'Retry Payment' after a refusal, and 'Try Again' once its countdown ends. */
function OtpActions({ ready, verifying, error, left, onRetry }: TOtpActionsProps) {
  return (
    <div className="actions">
      <Button type="submit" disabled={!ready || verifying} aria-busy={verifying}>
        {verifying ? (
          <>
            <Spinner small /> Verifying...
          </>
        ) : (
          'Verify OTP'
        )}
      </Button>
      {error ? (
        <Button variant="secondary" onClick={onRetry}>
          Retry Payment
        </Button>
      ) : null}
      {left > 0 ? (
        <p className="secondary-text" aria-live="off">
          Try Again in {left}s
        </p>
      ) : (
        <Button variant="link" onClick={onRetry}>
          Try Again
        </Button>
      )}
    </div>
  );
}

/**
 * 'Verify Payment' (spec §2 OTP screen, §5): one box per digit, a pasted code fills them all; a
 * bank that asks for a token gets one free-text field instead.
 */
export function OtpView({ displayMessage, verifying, error, onVerify, onRetry }: TOtpViewProps) {
  const id = useId();
  const bankToken = isBankTokenRequest(displayMessage);
  const otpDigits = useOtpDigits();
  const [token, setToken] = useState('');
  const left = useRetryCountdown(verifying);
  const otp = bankToken ? token : otpDigits.digits.join('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmitOtp(otp, { bankToken }) && !verifying) onVerify(otp);
  };

  return (
    <form className="otp-form" onSubmit={submit} noValidate>
      <h2 className="section-title">Verify Payment</h2>
      <p id={`${id}-message`}>{replacePhoneNumberPlaceholder(displayMessage)}</p>
      {bankToken ? (
        <>
          <label htmlFor={`${id}-token`}>Enter OTP</label>
          <input
            id={`${id}-token`}
            className="text-input"
            autoComplete="one-time-code"
            value={token}
            onChange={(event) => setToken(event.target.value)}
          />
        </>
      ) : (
        <OtpBoxes messageId={`${id}-message`} otpDigits={otpDigits} />
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <OtpActions
        ready={canSubmitOtp(otp, { bankToken })}
        verifying={verifying}
        error={error}
        left={left}
        onRetry={onRetry}
      />
    </form>
  );
}

type TThreeDsViewProps = {
  challengeUrl: string;
  onOpened(): void;
  /**
   * The page picks the attempt up when the payer comes back to it (the payment's read): inside an
   * app's browser, or where no tab opens, the check opens in this window and returns here.
   * Without it, a new tab as the spec says.
   */
  returnsHere?: boolean;
};

/**
 * 3-D Secure (spec §2): the bank's check, opened in a new tab; the page follows the stream. Inside
 * an app's browser or webview, or where the browser opens no tab, in this window, with the way
 * back to the consent page.
 */
export function ThreeDsView({ challengeUrl, onOpened, returnsHere = false }: TThreeDsViewProps) {
  return returnsHere ? (
    <ThreeDsComingBack challengeUrl={challengeUrl} onOpened={onOpened} />
  ) : (
    <ThreeDsBody opening="new_tab" challengeUrl={challengeUrl} onOpen={onOpened} />
  );
}

/** The check opened where this browser opens it, the page saying where (three-ds-opening.ts). */
function ThreeDsComingBack({ challengeUrl, onOpened }: Omit<TThreeDsViewProps, 'returnsHere'>) {
  const { opening, noTab, open } = useThreeDsOpening(onOpened);
  return (
    <ThreeDsBody
      opening={opening}
      noTab={noTab}
      challengeUrl={challengeUrl}
      onOpen={(event) => {
        event.preventDefault();
        open(challengeUrl);
      }}
    />
  );
}

function ThreeDsBody({
  opening,
  noTab = false,
  challengeUrl,
  onOpen,
}: {
  opening: TThreeDsOpening;
  /** The browser opened no tab at the last press: the page says so, and opens it here next. */
  noTab?: boolean;
  challengeUrl: string;
  onOpen(event: MouseEvent<HTMLAnchorElement>): void;
}) {
  return (
    <div className="three-ds">
      <h2 className="section-title">{THREE_DS_TEXTS.title}</h2>
      {noTab ? <p role="status">{THREE_DS_TEXTS.no_tab}</p> : null}
      <p>{THREE_DS_TEXTS[opening]}</p>
      <div className="actions">
        <a
          className="button primary"
          href={challengeUrl}
          {...(opening === 'new_tab' ? { target: '_blank', rel: 'noopener' } : {})}
          onClick={onOpen}
        >
          {THREE_DS_TEXTS.button}
        </a>
      </div>
    </div>
  );
}
