import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useReducer, useRef } from 'react';
import {
  accountsToList,
  LINKING_PANEL_INITIAL,
  linkingPanelReducer,
  type TLinkingPanelAction,
  type TLinkingPanelState,
} from '../../../domain/linking-panel';
import { USER_ACCOUNTS_KEY, useUserAccounts } from '../../api/accounts';
import { usePublicConfig } from '../../api/auth';
import { useBvnAccounts, useVerifiedBvn } from '../../api/identity';
import { useBvnRequests } from './bvn-step';
import { bvnFormStep, removeAccount, type TLinkingPanelMover } from './linking-calls';
import { linkingStepBody } from './linking-step-body';
import { useAccountLinkProgress, useCardLinkingEvents } from './use-linking-events';
import './linking.css';

export type TLinkingPanelProps = {
  /** Link by card whatever the account supports. */
  forceCardFlow?: boolean;
  /**
   * The account a payment just came from (spec §4: 'Bank linking after authentication sets an
   * origin account for linking'): the panel opens at manual entry with its number (empty for a
   * masked one, '****1234', which the payer types), and goes on with it once its bank confirms it.
   */
  origin?: { accountNumber: string; institutionCode: string } | null;
  /** The consent whose future payments the account is linked to pay, where there is one. */
  consentId?: string;
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
  consentId,
  onClose,
  onLinked,
}: TLinkingPanelProps) {
  const panel = useLinkingPanelState(forceCardFlow, origin, consentId);
  const { state, act } = panel;
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
  usePanelOutcome(panel, onClose, onLinked);

  // docs/identity.md: the panel asks for the BVN the first time it is needed, once.
  const needsBvn = state.step === 'select' && verifiedBvn.isSuccess && verifiedBvn.data === null;
  useEffect(() => {
    if (needsBvn) act({ type: 'bvn_required' });
  }, [needsBvn, act]);

  const cardStream = useLinkingStreams(panel);
  const bvnRequest = useBvnRequests((action) => bvnFormStep(panel, action));

  return (
    <section className="linking-panel" aria-label="Link Account">
      {linkingStepBody(state, {
        panel,
        listed,
        loadError: accounts.isError ? accounts.error.message : null,
        origin,
        onDelete: debugTools ? (account) => removeAccount(queryClient, account) : undefined,
        bvnRequest,
        reconnect: cardStream.reconnect,
      })}
    </section>
  );
}

/** The panel's state, opened (at manual entry for a payment's account), and how it moves. */
function useLinkingPanelState(
  forceCardFlow: boolean,
  origin: TLinkingPanelProps['origin'],
  consentId: string | undefined,
) {
  const [state, dispatch] = useReducer(linkingPanelReducer, null, () => {
    const opened = linkingPanelReducer(LINKING_PANEL_INITIAL, { type: 'open', forceCardFlow });
    return origin ? linkingPanelReducer(opened, { type: 'manual_entry_opened' }) : opened;
  });
  const current = useRef<TLinkingPanelState>(state);
  const act = useCallback((action: TLinkingPanelAction): TLinkingPanelState => {
    const next = linkingPanelReducer(current.current, action);
    current.current = next;
    dispatch(action);
    return next;
  }, []);
  return { state, current, act, consentId };
}

/**
 * Closed: the payer's accounts are read again and the page told. Linked: the page is told, and
 * the follow-up comes after its delay.
 */
function usePanelOutcome(
  { state, act }: TLinkingPanelMover & { state: TLinkingPanelState },
  onClose: () => void,
  onLinked: (() => void) | undefined,
) {
  const queryClient = useQueryClient();
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
  }, [state, queryClient, act]);
}

/** The server's streams that move the panel on: the card's linking and the transfer's progress. */
function useLinkingStreams({ state, act }: TLinkingPanelMover & { state: TLinkingPanelState }) {
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
  return cardStream;
}
