import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useReducer, useRef } from 'react';
import {
  accountsToList,
  LINKING_PANEL_INITIAL,
  linkingPanelReducer,
  type TLinkingContext,
  type TLinkingAccount,
  type TLinkingPanelAction,
  type TLinkingPanelState,
  type TLinkingSource,
} from '../../../domain/linking-panel';
import { accountDeletionId } from '../../../domain/account-row';
import { TEST_CARD_CHARGE_MAX_KOBO, TEST_CARD_CHARGE_MIN_KOBO } from '../../../domain/constants';
import { formatNaira } from '../../../domain/money';
import type { TEncryptedCard } from '../../../domain/schemas/card';
import type { TUserAccount } from '../../../domain/schemas/user-account';
import { accountsApi, USER_ACCOUNTS_KEY, useUserAccounts } from '../../api/accounts';
import { ApiError } from '../../api/api-error';
import { usePublicConfig } from '../../api/auth';
import { useBvnAccounts, useVerifiedBvn } from '../../api/identity';
import { CardFormView } from '../../ui/card/card-form-view';
import { OtpView, ThreeDsView } from '../../ui/card/card-step-views';
import { Button } from '../../ui/button';
import {
  LinkingAccountLine,
  LinkingError,
  LinkingProgress,
  LinkingSuccess,
  PaymentStep,
  VerificationForm,
} from './linking-steps';
import { BvnFormView, useBvnRequests } from './bvn-step';
import { MandateFormSuccess } from './paper-mandate';
import { SelectStep } from './select-step';
import { useAccountLinkProgress, useCardLinkingEvents } from './use-linking-events';
import './linking.css';

/** The test charge a linked card gets, said before its details are asked (spec §2 card_entry). */
const TEST_CHARGE_TEXT = `A test payment between ${formatNaira(TEST_CARD_CHARGE_MIN_KOBO)} and ${formatNaira(TEST_CARD_CHARGE_MAX_KOBO)} will be made and refunded immediately.`;

const messageOf = (error: unknown): string | null =>
  error instanceof Error && error.message ? error.message : null;
/** The catalogue's code of a refused call: the reducer decides by it (BVN_NOT_VERIFIED). */
const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : undefined);

export type TLinkingPanelProps = {
  /** Link by card whatever the account supports. */
  forceCardFlow?: boolean;
  /**
   * The account a payment just came from (spec §4: 'Bank linking after authentication sets an
   * origin account for linking'): the panel opens at manual entry with its number (empty for a
   * masked one, '****1234', which the payer types), and goes on with it once its bank confirms it.
   */
  origin?: { accountNumber: string; institutionCode: string } | null;
  /** The panel closed: after success, on cancel, or Back from an error. */
  onClose(): void;
  /** An account was linked: the payer's accounts are read again. */
  onLinked?(): void;
};

/**
 * The account-linking panel (spec §2, §4 Account-linking panel): each step is the domain's
 * reducer's state, drawn here; the calls each step needs run from the payer's action, and the
 * server's streams move it on.
 */
export function LinkingPanel({
  forceCardFlow = false,
  origin = null,
  onClose,
  onLinked,
}: TLinkingPanelProps) {
  const [state, dispatch] = useReducer(linkingPanelReducer, null, () => {
    const opened = linkingPanelReducer(LINKING_PANEL_INITIAL, { type: 'open', forceCardFlow });
    return origin ? linkingPanelReducer(opened, { type: 'manual_entry_opened' }) : opened;
  });
  // The state the next call decides on: a click that comes while a call is in flight is refused
  // by the reducer, and must not start a second call either (spec §5: one attempt at a time).
  const current = useRef<TLinkingPanelState>(state);
  const act = (action: TLinkingPanelAction): TLinkingPanelState => {
    const next = linkingPanelReducer(current.current, action);
    current.current = next;
    dispatch(action);
    return next;
  };

  const queryClient = useQueryClient();
  const accounts = useUserAccounts(true);
  const verifiedBvn = useVerifiedBvn();
  const bvnAccounts = useBvnAccounts(Boolean(verifiedBvn.data));
  // What the select step lists: known once the payer's accounts, BVN and its accounts are.
  const listed =
    accounts.data && verifiedBvn.isSuccess && !(verifiedBvn.data && bvnAccounts.isPending)
      ? accountsToList(accounts.data, bvnAccounts.data ?? [])
      : undefined;
  const debugTools = usePublicConfig().data?.debugTools === true;
  const close = useEffectEvent(onClose);
  const linked = useEffectEvent(() => {
    void queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
    onLinked?.();
  });

  useEffect(() => {
    if (state.step === 'closed') {
      // An attempt adds the account to the payer's, linked or not: the list is read again.
      void queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
      close();
    }
    if (state.step === 'success') {
      linked();
      // A paper mandate's success stays until the payer closes it.
      if (!state.followUp) return undefined;
      const timer = setTimeout(
        () => act({ type: 'success_delay_elapsed' }),
        state.followUp.delayMs,
      );
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [state, queryClient]);

  // docs/identity.md: the panel asks for the BVN the first time it is needed, once.
  const needsBvn = state.step === 'select' && verifiedBvn.isSuccess && verifiedBvn.data === null;
  useEffect(() => {
    if (needsBvn) act({ type: 'bvn_required' });
  }, [needsBvn]);

  const cardStreamActive =
    (state.step === 'card_entry' && state.view !== 'verification') ||
    (state.step === 'linking' && state.phase !== 'creating_link');
  const cardStream = useCardLinkingEvents(cardStreamActive, (event) =>
    act({ type: 'card_linking_event', event }),
  );
  const waitingLinkId =
    state.step === 'payment' || state.step === 'confirming' ? state.accountLink.id : null;
  useAccountLinkProgress(waitingLinkId, (event) =>
    act({ type: 'link_progress', status: event.status, message: event.message }),
  );

  /** The linking step's call: the account link, or straight on to the card form. */
  const startLink = ({ account, cardFlow }: TLinkingContext) => {
    if (cardFlow) {
      act({ type: 'link_resolved', accountLink: null });
      return;
    }
    accountsApi
      .createLink({
        accountNumber: account.accountNumber ?? '',
        accountName: account.accountName ?? '',
        bankName: account.bankName,
        institutionCode: account.institutionCode ?? '',
      })
      .then(
        (answer) => act({ type: 'link_resolved', accountLink: answer.accountLink }),
        (error: unknown) =>
          act({ type: 'link_failed', message: messageOf(error), code: codeOf(error) }),
      );
  };

  const choose = (account: TLinkingAccount, source: TLinkingSource) => {
    const before = current.current;
    const next = act({ type: 'account_chosen', account, source });
    if (next === before || next.step !== 'linking') return;
    startLink(next.context);
  };

  const bvnRequest = useBvnRequests((action) => {
    const before = current.current;
    const next = act({ type: 'bvn_form', action });
    if (next === before) return null;
    // Verified while linking an account: the panel carries on with it.
    if (next.step === 'linking' && next.phase === 'creating_link') startLink(next.context);
    return next.step === 'bvn' ? next.form : null;
  });

  const confirmTransfer = () => {
    const before = current.current;
    const next = act({ type: 'transfer_confirm_requested' });
    if (next === before || next.step !== 'confirming') return;
    accountsApi.confirmPayment(next.accountLink.id).then(
      (answer) => act({ type: 'confirm_result', ...answer }),
      (error: unknown) =>
        act({ type: 'confirm_result', success: false, message: messageOf(error) ?? undefined }),
    );
  };

  const submitCard = async (cardDetails: TEncryptedCard) => {
    const before = current.current;
    const next = act({ type: 'card_submitted' });
    if (next === before || next.step !== 'card_entry') return;
    const { accountNumber, institutionCode } = next.context.account;
    await accountsApi
      .linkCard(
        { accountNumber: accountNumber ?? '', institutionCode: institutionCode ?? '' },
        cardDetails,
      )
      .then(
        (response) => act({ type: 'card_response', response }),
        (error: unknown) =>
          act({ type: 'card_failed', message: messageOf(error), code: codeOf(error) }),
      );
  };

  const submitOtp = (otp: string) => {
    const before = current.current;
    const next = act({ type: 'otp_submitted' });
    if (next === before || next.step !== 'card_entry' || !next.paymentId) return;
    accountsApi.completeCard(next.paymentId, otp).then(
      (answer) => act({ type: 'otp_result', success: answer.success, message: answer.message }),
      (error: unknown) =>
        act({ type: 'otp_result', success: false, message: messageOf(error) ?? undefined }),
    );
  };

  const verify = (answers: Array<{ param1: string; value: string }>) => {
    const before = current.current;
    const next = act({ type: 'verification_submitted' });
    if (next === before || next.step !== 'card_entry' || !next.accountLink?.remitaTransRef) return;
    accountsApi
      .confirmAlt({ remitaTransRef: next.accountLink.remitaTransRef, authParams: answers })
      .then(
        (answer) =>
          act({ type: 'verification_result', success: answer.success, message: answer.message }),
        (error: unknown) =>
          act({
            type: 'verification_result',
            success: false,
            message: messageOf(error) ?? undefined,
            // The reducer tells by the code whether the link is over (too many wrong answers).
            code: error instanceof ApiError ? error.code : undefined,
          }),
      );
  };

  const remove = async (account: TUserAccount) => {
    const id = accountDeletionId(account);
    if (!id) return;
    await accountsApi.remove(id);
    await queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
  };

  const cancel = () => act({ type: 'close' });

  const body = (() => {
    switch (state.step) {
      case 'closed':
        return null;
      case 'select':
        return (
          <SelectStep
            accounts={listed}
            loadError={accounts.isError ? accounts.error.message : null}
            manualEntry={state.manualEntry}
            onManualEntry={() => act({ type: 'manual_entry_opened' })}
            origin={origin}
            onChoose={choose}
            onCancel={cancel}
            onDelete={debugTools ? remove : undefined}
          />
        );
      case 'bvn':
        return (
          <BvnFormView
            form={state.form}
            onAction={bvnRequest}
            onCancel={() => act({ type: 'back' })}
          />
        );
      case 'linking':
        return (
          <LinkingProgress state={state} onReconnect={cardStream.reconnect} onCancel={cancel} />
        );
      case 'payment':
      case 'confirming':
        return (
          <PaymentStep
            account={state.context.account}
            accountLink={state.accountLink}
            notice={state.step === 'payment' ? state.notice : null}
            confirming={state.step === 'confirming'}
            onConfirm={confirmTransfer}
            onCancel={cancel}
          />
        );
      case 'card_entry':
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
                onSubmit={submitCard}
                onBack={cancel}
              />
            ) : null}
            {state.view === 'otp' ? (
              <OtpView
                displayMessage={state.displayMessage ?? ''}
                verifying={state.busy}
                error={null}
                onVerify={submitOtp}
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
                onVerify={verify}
                onBack={() => act({ type: 'back' })}
              />
            ) : null}
          </div>
        );
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
  })();

  return (
    <section className="linking-panel" aria-label="Link Account">
      {body}
    </section>
  );
}
