import type { ReactNode } from 'react';
import { TEST_CARD_CHARGE_MAX_KOBO, TEST_CARD_CHARGE_MIN_KOBO } from '../../../domain/constants';
import type { TLinkingAccount, TLinkingPanelState } from '../../../domain/linking-panel';
import { formatNaira } from '../../../domain/money';
import type { TBvnFormAction } from '../../../domain/bvn-form';
import type { TUserAccount } from '../../../domain/schemas/user-account';
import { CardFormView } from '../../ui/card/card-form-view';
import { OtpView, ThreeDsView } from '../../ui/card/card-step-views';
import { Button } from '../../ui/button';
import { BvnFormView } from './bvn-step';
import {
  chooseAccount,
  confirmTransfer,
  submitCard,
  submitOtp,
  verifyAnswers,
  type TLinkingPanelMover,
} from './linking-calls';
import {
  LinkingAccountLine,
  LinkingError,
  LinkingProgress,
  LinkingSuccess,
  PaymentStep,
  VerificationForm,
} from './linking-steps';
import { MandateFormSuccess } from './paper-mandate-view';
import { SelectStep } from './select-step';

/** The test charge a linked card gets, said before its details are asked (spec §2 card_entry). */
const TEST_CHARGE_TEXT = `A test payment between ${formatNaira(TEST_CARD_CHARGE_MIN_KOBO)} and ${formatNaira(TEST_CARD_CHARGE_MAX_KOBO)} will be made and refunded immediately.`;

/** What the panel's steps are drawn with besides its state. */
export type TLinkingStepParts = {
  panel: TLinkingPanelMover;
  /** What the select step lists, once known. */
  listed: TLinkingAccount[] | undefined;
  loadError: string | null;
  origin: { accountNumber: string; institutionCode: string } | null;
  onDelete: ((account: TUserAccount) => Promise<void>) | undefined;
  bvnRequest(action: TBvnFormAction): void;
  reconnect(): void;
};

/** The step the panel's state is at, drawn (spec §2, §4 Account-linking panel). */
export function linkingStepBody(state: TLinkingPanelState, parts: TLinkingStepParts): ReactNode {
  const { panel } = parts;
  const { act } = panel;
  const cancel = () => act({ type: 'close' });
  switch (state.step) {
    case 'closed':
      return null;
    case 'select':
      return (
        <SelectStep
          accounts={parts.listed}
          loadError={parts.loadError}
          manualEntry={state.manualEntry}
          onManualEntry={() => act({ type: 'manual_entry_opened' })}
          origin={parts.origin}
          onChoose={(account, source) => chooseAccount(panel, account, source)}
          onCancel={cancel}
          onDelete={parts.onDelete}
        />
      );
    case 'bvn':
      return (
        <BvnFormView
          form={state.form}
          onAction={parts.bvnRequest}
          onCancel={() => act({ type: 'back' })}
        />
      );
    case 'linking':
      return <LinkingProgress state={state} onReconnect={parts.reconnect} onCancel={cancel} />;
    case 'payment':
    case 'confirming':
      return (
        <PaymentStep
          account={state.context.account}
          accountLink={state.accountLink}
          notice={state.step === 'payment' ? state.notice : null}
          confirming={state.step === 'confirming'}
          onConfirm={() => confirmTransfer(panel)}
          onCancel={cancel}
        />
      );
    case 'card_entry':
      return cardEntryBody(state, panel);
    case 'success':
      return state.mandateForm ? (
        <MandateFormSuccess form={state.mandateForm} onDone={cancel} />
      ) : (
        <LinkingSuccess />
      );
    case 'error':
      return <LinkingError message={state.message} onBack={() => act({ type: 'back' })} />;
    default: {
      const unhandled: never = state;
      throw new Error(`No view for ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Linking by card: its error, then the card form, the OTP, 3-D Secure or the bank's questions. */
function cardEntryBody(
  state: Extract<TLinkingPanelState, { step: 'card_entry' }>,
  panel: TLinkingPanelMover,
): ReactNode {
  const { act } = panel;
  const cancel = () => act({ type: 'close' });
  return (
    <div className="card-entry">
      {state.error && state.view !== 'verification' ? (
        <div className="failure" role="alert">
          <strong>Card Linking Error</strong>
          <p>{state.error}</p>
          <Button variant="secondary" onClick={() => act({ type: 'card_retry' })}>
            Try Again
          </Button>
        </div>
      ) : null}
      {state.view === 'card_form' ? (
        <CardFormView
          // A refused card starts the form again at its details, its fields cleared.
          key={state.error ?? 'card'}
          purpose="linking"
          title="Link Account with Card"
          intro={
            <>
              <LinkingAccountLine account={state.context.account} />
              {state.paymentId ? null : <p>{TEST_CHARGE_TEXT}</p>}
            </>
          }
          error={null}
          onSubmit={(cardDetails) => submitCard(panel, cardDetails)}
          onBack={cancel}
        />
      ) : null}
      {state.view === 'otp' ? (
        <OtpView
          displayMessage={state.displayMessage ?? ''}
          verifying={state.busy}
          error={null}
          onVerify={(otp) => submitOtp(panel, otp)}
          onRetry={() => act({ type: 'card_details_requested' })}
        />
      ) : null}
      {state.view === 'three_ds' && state.challengeUrl ? (
        <ThreeDsView
          challengeUrl={state.challengeUrl}
          onOpened={() => act({ type: 'three_ds_started' })}
        />
      ) : null}
      {state.view === 'otp' || state.view === 'three_ds' ? (
        // The card form's 'back' and the verification form's 'Back' are their own; these
        // two views have none, and the panel is the step's only way back.
        <div className="actions">
          <Button variant="link" onClick={cancel}>
            cancel
          </Button>
        </div>
      ) : null}
      {state.view === 'verification' && state.accountLink ? (
        <VerificationForm
          authParams={state.accountLink.authParams}
          busy={state.busy}
          error={state.error}
          onVerify={(answers) => verifyAnswers(panel, answers)}
          onBack={() => act({ type: 'back' })}
        />
      ) : null}
    </div>
  );
}
