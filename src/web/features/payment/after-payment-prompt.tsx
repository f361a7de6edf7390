import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { afterOriginLinkRefused, type TAfterPaymentPrompt } from '../../../domain/after-payment';
import { formatNaira } from '../../../domain/money';
import { accountsApi, USER_ACCOUNTS_KEY } from '../../api/accounts';
import { ApiError } from '../../api/api-error';
import { paymentsApi } from '../../api/payments';
import { BusyOverlay } from '../../ui/busy-overlay';
import type { TPayNowPrompts } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { DetailRow } from '../../ui/copy-row';

type TAfterPaymentPromptProps = {
  /** The domain's choice (src/domain/after-payment.ts). */
  prompt: TAfterPaymentPrompt;
  /** The amount just paid, in kobo. */
  amount: number;
  paymentId: string;
  prompts: TPayNowPrompts;
  /** Asking, signing in (the payment screen shows the auth prompt), or linking in the panel. */
  step: 'ask' | 'sign_in' | 'link';
  onStep(step: 'sign_in' | 'link'): void;
  /** Skipped, or the prompt's work done: the grant goes on. */
  onSettled(): void;
};

const LINK_QUESTION = 'Link this account for future payments?';
const LINK_NEEDS_BVN =
  'To link the account you paid from, verify your BVN first: only accounts registered to your BVN can be linked.';

/**
 * 'Confirm': the payment is the proof (docs/accounts.md "Linking from a payment"), so the
 * account is linked from it at once; where it proves nothing, the panel links it its own way.
 * The server links the sender its bank named: the page, which may see the number masked,
 * names only the payment.
 */
function useLinkFromPayment(
  paymentId: string,
  onStep: TAfterPaymentPromptProps['onStep'],
  onSettled: () => void,
) {
  const queryClient = useQueryClient();
  const [linking, setLinking] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  // The payer has verified no BVN: the prompt asks for it once, then links again.
  const [verifyingBvn, setVerifyingBvn] = useState(false);

  const linkFromPayment = async () => {
    setLinking(true);
    setLinkError(null);
    const chargeToken = paymentsApi.transferTokenOf(paymentId);
    try {
      await accountsApi.linkFromPayment({ paymentId, ...(chargeToken ? { chargeToken } : {}) });
      void queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
      onSettled();
    } catch (caught) {
      setLinking(false);
      const next = caught instanceof ApiError ? afterOriginLinkRefused(caught.code) : 'retry';
      if (next === 'done') onSettled();
      else if (next === 'panel') onStep('link');
      else if (next === 'verify_bvn') setVerifyingBvn(true);
      else setLinkError(caught instanceof ApiError ? caught.message : 'Failed to link account');
    }
  };
  return { linking, linkError, verifyingBvn, setVerifyingBvn, linkFromPayment };
}

type TLinkFromPayment = ReturnType<typeof useLinkFromPayment>;

type TPromptFrameProps = {
  title: string;
  children?: ReactNode;
  actions: ReactNode;
};

/** A prompt's frame: its title, what it shows, and its buttons. */
function PromptFrame({ title, children, actions }: TPromptFrameProps) {
  const titleId = useId();
  return (
    <section className="after-payment-prompt" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {title}
      </h2>
      {children}
      <div className="actions">{actions}</div>
    </section>
  );
}

type TLinkOriginPromptProps = {
  prompt: Extract<TAfterPaymentPrompt, { kind: 'link_origin' }>;
  amount: number;
  prompts: TPayNowPrompts;
  link: TLinkFromPayment;
  onSettled(): void;
};

/** The signed-in payer's 'Link this account for future payments?', or the BVN it asks first. */
function LinkOriginPrompt({ prompt, amount, prompts, link, onSettled }: TLinkOriginPromptProps) {
  const { linking, linkError, verifyingBvn, setVerifyingBvn, linkFromPayment } = link;
  if (verifyingBvn) {
    return (
      <prompts.BvnVerification
        reason={LINK_NEEDS_BVN}
        onCancel={() => setVerifyingBvn(false)}
        onVerified={() => {
          setVerifyingBvn(false);
          void linkFromPayment();
        }}
      />
    );
  }
  return (
    <PromptFrame
      title={LINK_QUESTION}
      actions={
        <>
          <Button disabled={linking} onClick={() => void linkFromPayment()}>
            Confirm
          </Button>
          <Button variant="secondary" disabled={linking} onClick={onSettled}>
            Maybe later
          </Button>
        </>
      }
    >
      <dl className="copy-details">
        <DetailRow label="Amount paid" value={formatNaira(amount)} />
        <DetailRow label="Bank" value={prompt.payerBank.bankName} />
        <DetailRow label="Account" value={accountLine(prompt.payerBank)} />
      </dl>
      {linkError ? (
        <p className="form-error" role="alert">
          {linkError}
        </p>
      ) : null}
      {linking ? <BusyOverlay title="Linking Your Account" /> : null}
    </PromptFrame>
  );
}

/**
 * The prompts after a payment (spec §2): 'Link this account for future payments?' for an
 * anonymous payer, the link-origin prompt for a signed-in one, and 'Save Your Card', full or
 * compact. Which one shows is the domain's choice; this draws it.
 */
export function AfterPaymentPrompt({
  prompt,
  amount,
  paymentId,
  prompts,
  step,
  onStep,
  onSettled,
}: TAfterPaymentPromptProps) {
  const link = useLinkFromPayment(paymentId, onStep, onSettled);
  if (prompt.kind === 'save_card') {
    return <prompts.SaveCardPrompt paymentId={paymentId} onDone={onSettled} />;
  }
  if (step === 'link' && (prompt.kind === 'link_origin' || prompt.kind === 'link_card')) {
    const { payerBank } = prompt.kind === 'link_origin' ? prompt : { payerBank: null };
    return (
      <prompts.LinkAccountPanel
        origin={
          payerBank?.accountNumber && payerBank.institutionCode
            ? { accountNumber: payerBank.accountNumber, institutionCode: payerBank.institutionCode }
            : null
        }
        forceCardFlow={prompt.kind === 'link_card'}
        onClose={onSettled}
      />
    );
  }

  switch (prompt.kind) {
    case 'link_account_sign_in':
      return (
        <PromptFrame
          title={LINK_QUESTION}
          actions={
            <>
              <Button onClick={() => onStep('sign_in')}>Sign In to Save Account</Button>
              <Button variant="secondary" onClick={onSettled}>
                Skip for Now
              </Button>
            </>
          }
        >
          <dl className="copy-details">
            <DetailRow label="Bank" value={prompt.payerBank.bankName} />
            <DetailRow label="Account" value={accountLine(prompt.payerBank)} />
          </dl>
        </PromptFrame>
      );
    case 'link_origin':
      return (
        <LinkOriginPrompt
          prompt={prompt}
          amount={amount}
          prompts={prompts}
          link={link}
          onSettled={onSettled}
        />
      );
    case 'link_card':
      return (
        <PromptFrame
          title="Save Your Card"
          actions={
            <>
              <Button onClick={() => onStep('link')}>Enter Account Number</Button>
              <Button variant="secondary" onClick={onSettled}>
                Maybe later
              </Button>
            </>
          }
        >
          <dl className="copy-details">
            <DetailRow label="Amount paid" value={formatNaira(amount)} />
          </dl>
        </PromptFrame>
      );
    case 'save_card_sign_in':
      return (
        <PromptFrame
          title="Save Your Card"
          actions={
            <>
              <Button onClick={() => onStep('sign_in')}>Sign In &amp; Save Card</Button>
              <Button variant="secondary" onClick={onSettled}>
                Skip for Now
              </Button>
            </>
          }
        />
      );
  }
}

const accountLine = (bank: { accountNumber: string | null; accountName: string | null }) =>
  [bank.accountNumber, bank.accountName].filter(Boolean).join(' · ');
