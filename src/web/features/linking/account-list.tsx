import {
  useEffect,
  useId,
  useRef,
  useState,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import {
  accountDeletionId,
  accountRowBadges,
  accountRowSubtitle,
  deleteAccountConfirmation,
} from '../../../domain/account-row';
import { ACCOUNT_LIST_MAX_HEIGHT_PX, LONG_PRESS_DELETE_MS } from '../../../domain/constants';
import type { TUserAccount } from '../../../domain/schemas/user-account';
import { Button } from '../../ui/button';
import { paperMandateFormOfAccount } from '../../../domain/paper-mandate';
import { BankLogo } from './bank-logo';
import { PaperMandateFormLink } from './paper-mandate-view';

export type TAccountListProps = {
  accounts: readonly TUserAccount[];
  /** Radio for one choice, checkbox for several (spec §2 Account list row). */
  mode: 'radio' | 'checkbox';
  /** The accessible name of the group. */
  label: string;
  isSelected(account: TUserAccount): boolean;
  isDisabled(account: TUserAccount): boolean;
  onToggle(account: TUserAccount): void;
  /** A tag after the bank name (the search results' 'linked'). */
  tagOf?: (account: TUserAccount) => string | null;
  /** Why a row cannot be chosen, said on the row ('This account is not registered to your BVN.'). */
  noteOf?: (account: TUserAccount) => string | null;
  /** Testers' delete menu (spec §2), only when the page's debug flag is on. */
  onDelete?: ((account: TUserAccount) => Promise<void>) | undefined;
};

export const accountKey = (account: TUserAccount) =>
  `${account.institutionCode ?? ''}:${account.accountNumber ?? account.integrations.card?.obfuscatedCard ?? ''}`;

/** The payer's accounts as selectable rows, at most 330 px tall before it scrolls (spec §2). */
export function AccountList({
  accounts,
  mode,
  label,
  isSelected,
  isDisabled,
  onToggle,
  tagOf,
  noteOf,
  onDelete,
}: TAccountListProps) {
  const name = useId();
  const [deleting, setDeleting] = useState<TUserAccount | null>(null);
  return (
    <>
      <fieldset className="account-list" style={{ maxHeight: ACCOUNT_LIST_MAX_HEIGHT_PX }}>
        <legend className="visually-hidden">{label}</legend>
        {accounts.map((account) => (
          <AccountRow
            key={accountKey(account)}
            account={account}
            input={
              <input
                type={mode}
                name={name}
                checked={isSelected(account)}
                disabled={isDisabled(account)}
                onChange={() => onToggle(account)}
              />
            }
            tag={tagOf?.(account) ?? null}
            note={noteOf?.(account) ?? null}
            onDeleteRequested={
              onDelete && accountDeletionId(account) ? () => setDeleting(account) : undefined
            }
          />
        ))}
      </fieldset>
      {deleting && onDelete ? (
        <DeleteAccountDialog
          account={deleting}
          onDelete={() => onDelete(deleting)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}

type TAccountRowProps = {
  account: TUserAccount;
  input: ReactNode;
  tag: string | null;
  note: string | null;
  onDeleteRequested: (() => void) | undefined;
};

/** One account: bank logo and name, its subtitle and badges (spec §2 Account list row). */
function AccountRow({ account, input, tag, note, onDeleteRequested }: TAccountRowProps) {
  const badges = accountRowBadges(account);
  const paperForm = paperMandateFormOfAccount(account);
  const press = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPress = () => {
    if (press.current) clearTimeout(press.current);
    press.current = null;
  };
  useEffect(() => cancelPress, []);
  const debugHandlers = onDeleteRequested
    ? {
        // spec §2: a long press (500 ms) or a right-click opens the testers' delete menu.
        onContextMenu: (event: MouseEvent) => {
          event.preventDefault();
          cancelPress();
          onDeleteRequested();
        },
        onPointerDown: (event: PointerEvent) => {
          cancelPress();
          if (event.button !== 0) return;
          press.current = setTimeout(() => {
            press.current = null;
            onDeleteRequested();
          }, LONG_PRESS_DELETE_MS);
        },
        onPointerUp: cancelPress,
        onPointerLeave: cancelPress,
      }
    : {};
  return (
    <label
      className={`account-row${badges.includes('Not supported') ? ' unsupported' : ''}`}
      {...debugHandlers}
    >
      <BankLogo account={account} />
      <span className="account-text">
        <span className="account-bank">
          {account.bankName}
          {tag ? <span className="tag">{tag}</span> : null}
        </span>
        <span className="secondary-text">{accountRowSubtitle(account)}</span>
        {account.accountName ? (
          <span className="secondary-text account-name">{account.accountName}</span>
        ) : null}
        {badges.map((badge) => (
          <span key={badge} className="badge">
            {badge}
          </span>
        ))}
        {note ? <span className="account-note">{note}</span> : null}
        {paperForm ? <PaperMandateFormLink formUrl={paperForm} variant="link" /> : null}
      </span>
      {input}
    </label>
  );
}

type TDeleteAccountDialogProps = {
  account: TUserAccount;
  onDelete(): Promise<void>;
  onClose(): void;
};

/** 'Delete Account' (spec §2): Cancel / Delete, 'Deleting...' while it runs, Escape closes. */
function DeleteAccountDialog({ account, onDelete, onClose }: TDeleteAccountDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const node = dialog.current;
    node?.showModal();
    return () => node?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="delete-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={titleId} className="section-title">
        Delete Account
      </h2>
      <p>{deleteAccountConfirmation(account)}</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          className="danger"
          disabled={busy}
          aria-busy={busy}
          onClick={() => {
            setBusy(true);
            setError(null);
            onDelete().then(onClose, (failure: unknown) => {
              setBusy(false);
              setError(failure instanceof Error ? failure.message : String(failure));
            });
          }}
        >
          {busy ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </dialog>
  );
}
