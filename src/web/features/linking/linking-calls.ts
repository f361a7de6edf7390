import type { QueryClient } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { accountDeletionId } from '../../../domain/account-row';
import type { TBvnFormAction, TBvnFormState } from '../../../domain/bvn-form';
import type {
  TLinkingAccount,
  TLinkingContext,
  TLinkingPanelAction,
  TLinkingPanelState,
  TLinkingSource,
} from '../../../domain/linking-panel';
import type { TEncryptedCard } from '../../../domain/schemas/card';
import type { TUserAccount } from '../../../domain/schemas/user-account';
import { accountsApi, USER_ACCOUNTS_KEY } from '../../api/accounts';
import { ApiError } from '../../api/api-error';

const messageOf = (error: unknown): string | null =>
  error instanceof Error && error.message ? error.message : null;
/** The catalogue's code of a refused call: the reducer decides by it (BVN_NOT_VERIFIED). */
const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : undefined);

/**
 * The panel's state and how it moves. `current` is the state the next call decides on: a click
 * that comes while a call is in flight is refused by the reducer, and must not start a second
 * call either (spec §5: one attempt at a time).
 */
export type TLinkingPanelMover = {
  current: RefObject<TLinkingPanelState>;
  act(action: TLinkingPanelAction): TLinkingPanelState;
  /** The consent the panel links for, where there is one (docs/providers/remita.md "Terms"). */
  consentId?: string | undefined;
};

/** The linking step's call: the account link, or straight on to the card form. */
export function startLink(
  { act, consentId }: TLinkingPanelMover,
  { account, cardFlow }: TLinkingContext,
) {
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
      ...(consentId ? { consentId } : {}),
    })
    .then(
      (answer) => act({ type: 'link_resolved', accountLink: answer.accountLink }),
      (error: unknown) =>
        act({ type: 'link_failed', message: messageOf(error), code: codeOf(error) }),
    );
}

/** An account chosen from the list or typed in: the panel links it. */
export function chooseAccount(
  panel: TLinkingPanelMover,
  account: TLinkingAccount,
  source: TLinkingSource,
) {
  const before = panel.current.current;
  const next = panel.act({ type: 'account_chosen', account, source });
  if (next === before || next.step !== 'linking') return;
  startLink(panel, next.context);
}

/** A step of the BVN form asked on the way; the form's state after it, or null. */
export function bvnFormStep(
  panel: TLinkingPanelMover,
  action: TBvnFormAction,
): TBvnFormState | null {
  const before = panel.current.current;
  const next = panel.act({ type: 'bvn_form', action });
  if (next === before) return null;
  // Verified while linking an account: the panel carries on with it.
  if (next.step === 'linking' && next.phase === 'creating_link') startLink(panel, next.context);
  return next.step === 'bvn' ? next.form : null;
}

/** 'I have made the transfer': the server is asked whether the payment came. */
export function confirmTransfer({ current, act }: TLinkingPanelMover) {
  const before = current.current;
  const next = act({ type: 'transfer_confirm_requested' });
  if (next === before || next.step !== 'confirming') return;
  accountsApi.confirmPayment(next.accountLink.id).then(
    (answer) => act({ type: 'confirm_result', ...answer }),
    (error: unknown) =>
      act({ type: 'confirm_result', success: false, message: messageOf(error) ?? undefined }),
  );
}

/** The card's details, encrypted, sent to link the account by card. */
export async function submitCard(
  { current, act }: TLinkingPanelMover,
  cardDetails: TEncryptedCard,
) {
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
}

/** The OTP the card's bank sent, to complete the card's test charge. */
export function submitOtp({ current, act }: TLinkingPanelMover, otp: string) {
  const before = current.current;
  const next = act({ type: 'otp_submitted' });
  if (next === before || next.step !== 'card_entry' || !next.paymentId) return;
  accountsApi.completeCard(next.paymentId, otp).then(
    (answer) => act({ type: 'otp_result', success: answer.success, message: answer.message }),
    (error: unknown) =>
      act({ type: 'otp_result', success: false, message: messageOf(error) ?? undefined }),
  );
}

/** The answers to the bank's verification questions. */
export function verifyAnswers(
  { current, act }: TLinkingPanelMover,
  answers: Array<{ param1: string; value: string }>,
) {
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
}

/** A debug tool: the account is removed and the payer's accounts read again. */
export async function removeAccount(queryClient: QueryClient, account: TUserAccount) {
  const id = accountDeletionId(account);
  if (!id) return;
  await accountsApi.remove(id);
  await queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
}
