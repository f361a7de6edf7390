import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { TPasskeySummary, TPasskeysResponse } from '../../../domain/schemas/auth';
import { authApi, passkeysQueryKey, usePasskeysQuery } from '../../api/auth';
import { BusyOverlay } from '../../ui/busy-overlay';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/format-date';
import { Spinner } from '../../ui/spinner';
import { ConfirmDialog } from './confirm-dialog';
import { withPasskeyProof } from './passkey-proof';

/**
 * One passkey: when it was added and used, whether it may approve payments yet, and Remove; or,
 * when a session signed in by code alone asked to remove it, when that happens and Cancel removal.
 */
function PasskeyItem({
  passkey,
  last,
  remove,
  cancelRemoval,
  focusNote,
}: {
  passkey: TPasskeySummary;
  last: boolean;
  remove(passkey: TPasskeySummary): Promise<void>;
  cancelRemoval(passkey: TPasskeySummary): Promise<void>;
  /** Where focus goes when Remove is gone with the dialog (the removal was scheduled). */
  focusNote(): void;
}) {
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  // Once the dialog is gone (a modal dialog makes the rest of the page inert while it is open),
  // focus goes back to Remove.
  const dialogWasOpen = useRef(false);
  useEffect(() => {
    if (confirming) dialogWasOpen.current = true;
    else if (dialogWasOpen.current) {
      dialogWasOpen.current = false;
      if (removeButton.current) removeButton.current.focus();
      else focusNote();
    }
  }, [confirming, focusNote]);
  const added = formatDateTime(passkey.createdAt);
  return (
    <li className="payer-device">
      <article aria-labelledby={titleId}>
        <div className="payer-device-text">
          <h3 id={titleId}>Passkey added {added}</h3>
          <p className="muted">
            {passkey.lastUsedAt
              ? `Last used ${formatDateTime(passkey.lastUsedAt)}`
              : 'Not used yet'}
            {passkey.synced ? ' · Synced across your devices' : ''}
          </p>
          <p className={`device-trust${passkey.canApprove ? '' : ' waiting'}`}>
            {passkey.canApprove
              ? 'Can approve payments'
              : `Can approve payments from ${formatDateTime(passkey.signsFrom)}`}
          </p>
          {passkey.removalDueAt ? (
            <p className="device-trust waiting">
              Removal scheduled for {formatDateTime(passkey.removalDueAt)}
            </p>
          ) : null}
        </div>
        {passkey.removalDueAt ? (
          <button
            type="button"
            className="button secondary"
            onClick={() => void cancelRemoval(passkey)}
          >
            Cancel removal<span className="visually-hidden"> of the passkey added {added}</span>
          </button>
        ) : (
          <button
            type="button"
            className="button secondary revoke"
            ref={removeButton}
            onClick={() => setConfirming(true)}
          >
            Remove<span className="visually-hidden"> the passkey added {added}</span>
          </button>
        )}
      </article>
      {confirming ? (
        <ConfirmDialog
          title="Remove this passkey?"
          keepLabel="Keep passkey"
          confirmLabel="Remove passkey"
          busyLabel="Removing..."
          onConfirm={async () => {
            await remove(passkey);
            // Scheduled rather than removed, the row stays: its dialog closes.
            setConfirming(false);
          }}
          onClose={() => setConfirming(false)}
        >
          <p>
            The passkey added {added} will no longer sign you in or approve payments. Remove it if
            you do not recognise it, or the device is lost.
          </p>
          {last ? (
            <p className="muted">
              It is your last passkey: you will sign in with a code sent by SMS, and a new passkey
              may have to wait 24 hours before it can approve payments.
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

/**
 * 'Your devices' on the payer's own page (docs/identity.md "When a passkey is trusted"): the
 * passkeys that sign them in and approve payments, and Remove for one they do not recognise
 * (the SMS 'A new device was added …' sends them here, to #devices).
 */
export function PayerDevices() {
  const query = usePasskeysQuery(true);
  const queryClient = useQueryClient();
  const [removals, setRemovals] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  const [proving, setProving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const removedNote = useRef<HTMLParagraphElement>(null);

  // The removed row is gone with its dialog: the sentence saying so takes the focus it had.
  useEffect(() => {
    if (removals > 0) removedNote.current?.focus();
  }, [removals]);

  const focusNote = useCallback(() => removedNote.current?.focus(), []);

  const cancelRemoval = async (passkey: TPasskeySummary) => {
    setFailure(null);
    try {
      await withPasskeyProof(() => authApi.cancelRemoval(passkey.passkeyId), setProving);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'Please try again.');
      return;
    }
    setNote('Removal cancelled. Your passkey stays on your account.');
    setRemovals((n) => n + 1);
    await queryClient.invalidateQueries({ queryKey: passkeysQueryKey });
  };

  const remove = async (passkey: TPasskeySummary) => {
    const answer = await authApi.removePasskey(passkey.passkeyId);
    if ('removalDueAt' in answer) {
      const { removalDueAt } = answer;
      queryClient.setQueryData<TPasskeysResponse>(
        passkeysQueryKey,
        (data) =>
          data && {
            ...data,
            passkeys: data.passkeys.map((p) =>
              p.passkeyId === passkey.passkeyId ? { ...p, removalDueAt } : p,
            ),
          },
      );
      setNote(
        `Removal scheduled for ${formatDateTime(removalDueAt)}. You signed in with a code sent by SMS, so the passkey goes in 24 hours; we sent you a text with a link to cancel it.`,
      );
      setRemovals((n) => n + 1);
      return;
    }
    setNote('Passkey removed. It no longer signs you in or approves payments.');
    queryClient.setQueryData<TPasskeysResponse>(
      passkeysQueryKey,
      (data) =>
        data && {
          ...data,
          passkeys: data.passkeys.filter((p) => p.passkeyId !== passkey.passkeyId),
        },
    );
    setRemovals((n) => n + 1);
    // auth/me counts the payer's passkeys.
    void queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
  };

  const passkeys = query.data?.passkeys ?? [];
  return (
    <section className="payer-devices" aria-labelledby="devices">
      <h2 id="devices">Your devices</h2>
      <p className="muted">
        The passkeys that sign you in and approve payments. Remove any you do not recognise.
      </p>
      {proving ? <BusyOverlay title="Getting your biometric approval..." /> : null}
      {note ? (
        <p className="removed-note" role="status" tabIndex={-1} ref={removedNote}>
          {note}
        </p>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      {query.isPending ? (
        <div className="payer-consents-state" role="status">
          <Spinner />
          <p>Loading your devices...</p>
        </div>
      ) : query.isError ? (
        <div className="payer-consents-state">
          <p className="form-error" role="alert">
            Your devices could not be loaded. {query.error.message}
          </p>
          <Button onClick={() => void query.refetch()}>Try Again</Button>
        </div>
      ) : passkeys.length === 0 ? (
        <p>
          You have no passkey. Sign in with a code sent by SMS, and create one on the sign-in page.
        </p>
      ) : (
        <ul className="payer-device-list">
          {passkeys.map((passkey) => (
            <PasskeyItem
              key={passkey.passkeyId}
              passkey={passkey}
              last={passkeys.length === 1}
              remove={remove}
              cancelRemoval={cancelRemoval}
              focusNote={focusNote}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
