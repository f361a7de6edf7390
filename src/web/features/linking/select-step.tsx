import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { accountNumberSubmitError } from '../../../domain/account-number';
import { sortAccountsForList } from '../../../domain/account-row';
import { isAccountAlreadyLinked, isAccountSelectable } from '../../../domain/account-selectability';
import type { TLinkingAccount, TLinkingSource } from '../../../domain/linking-panel';
import { isMaskedAccountNumber, isOriginAccount } from '../../../domain/origin-privacy';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import type { TBankValidationResult, TUserAccount } from '../../../domain/schemas/user-account';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { AccountList } from './account-list';
import { AccountNumberInput } from './account-number-input';
import { useAccountSearch } from './use-account-search';

type TSelectStepProps = {
  accounts: readonly TUserAccount[] | undefined;
  loadError: string | null;
  manualEntry: boolean;
  onManualEntry(): void;
  /**
   * The account a payment came from: manual entry starts with it (masked, the payer types it),
   * and takes its bank's answer for it.
   */
  origin: { accountNumber: string; institutionCode: string } | null;
  onChoose(account: TLinkingAccount, source: TLinkingSource): void;
  onCancel(): void;
  onDelete: ((account: TUserAccount) => Promise<void>) | undefined;
};

/**
 * The select step (spec §2): the payer's accounts not yet linked, supported ones first and the
 * others disabled as 'Not supported'; '+ Add another account' opens manual entry, which is where
 * a payer with no such account starts.
 */
export function SelectStep({
  accounts,
  loadError,
  manualEntry,
  onManualEntry,
  origin,
  onChoose,
  onCancel,
  onDelete,
}: TSelectStepProps) {
  if (!accounts) {
    return loadError ? (
      <div className="select-step">
        <div className="failure" role="alert">
          <p>{loadError}</p>
        </div>
        <div className="actions">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    ) : (
      <p className="loading-line" role="status">
        <Spinner /> Loading Accounts...
      </p>
    );
  }
  const linked = accounts.filter((account) => isAccountAlreadyLinked(account, accounts));
  const linkable = sortAccountsForList(accounts.filter((account) => !linked.includes(account)));
  if (manualEntry || linkable.length === 0) {
    return (
      <ManualEntry
        title={accounts.length === 0 ? 'Add Account' : 'Add Another Account'}
        linkedAccounts={linked}
        origin={origin}
        onChoose={(account) => onChoose(account, 'manual')}
        onCancel={onCancel}
      />
    );
  }
  return (
    <div className="select-step">
      <h2 className="section-title">Select an account to link</h2>
      <AccountList
        accounts={linkable}
        mode="radio"
        label="Your accounts"
        isSelected={() => false}
        isDisabled={(account) => !isAccountSelectable(account, accounts)}
        onToggle={(account) => onChoose(account, 'list')}
        onDelete={onDelete}
      />
      <div className="actions">
        <Button variant="link" onClick={onManualEntry}>
          + Add another account
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

type TManualEntryProps = {
  title: string;
  linkedAccounts: readonly TUserAccount[];
  origin: { accountNumber: string; institutionCode: string } | null;
  onChoose(account: TLinkingAccount): void;
  onCancel(): void;
};

/**
 * Manual entry (spec §2, §5): 10 digits, searched 500 ms after the 10th; results listed under
 * 'Select an account:', an already-linked one tagged 'linked' and not choosable.
 */
function ManualEntry({ title, linkedAccounts, origin, onChoose, onCancel }: TManualEntryProps) {
  const id = useId();
  // A masked origin ('****1234': the payer who paid without signing in) is typed by the payer.
  const [accountNumber, setAccountNumber] = useState(
    origin && !isMaskedAccountNumber(origin.accountNumber) ? origin.accountNumber : '',
  );
  const [submitError, setSubmitError] = useState<string | null>(null);
  const search = useAccountSearch(accountNumber);
  const error = submitError ?? search.error;
  const isLinked = (account: TUserAccount) => isAccountAlreadyLinked(account, linkedAccounts);
  // docs/identity.md: another person's account is found, and cannot be linked.
  const resultOf = (account: TUserAccount): TBankValidationResult | undefined =>
    search.results.find(
      (result) =>
        result.institutionCode === account.institutionCode &&
        result.accountNumber === account.accountNumber,
    );
  const notYours = (account: TUserAccount) => resultOf(account)?.ownership === 'not_yours';
  const choosable = (account: TUserAccount) =>
    isAccountSelectable(account, linkedAccounts) && !notYours(account);
  // The payment's own account, once its bank answers for it: chosen for the payer, once.
  const originFound = search.results.find(
    (result) => origin !== null && isOriginAccount(origin, result) && choosable(result),
  );
  const originTaken = useRef(false);
  useEffect(() => {
    if (!originFound || originTaken.current) return;
    originTaken.current = true;
    onChoose(originFound);
  }, [originFound, onChoose]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitError(accountNumberSubmitError(accountNumber));
  };

  return (
    <form className="manual-entry" onSubmit={submit} noValidate>
      <h2 className="section-title">{title}</h2>
      <AccountNumberInput
        id={`${id}-number`}
        value={accountNumber}
        onChange={(digits) => {
          setSubmitError(null);
          setAccountNumber(digits);
        }}
        describedBy={error ? [`${id}-error`] : []}
        invalid={Boolean(error)}
        autoFocus
      />
      {search.validating ? (
        <p className="loading-line" role="status">
          <Spinner small /> Validating...
          {search.canCancel ? (
            <Button variant="link" onClick={search.cancel}>
              Cancel
            </Button>
          ) : null}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {search.results.length > 0 ? (
        <>
          <h3 className="section-title">Select an account:</h3>
          <AccountList
            accounts={search.results}
            mode="radio"
            label="Accounts found"
            isSelected={() => false}
            isDisabled={(account) => !choosable(account)}
            onToggle={(account) => {
              const found = resultOf(account);
              if (found) onChoose(found);
            }}
            tagOf={(account) => (isLinked(account) ? 'linked' : null)}
            noteOf={(account) =>
              notYours(account) ? ERROR_CATALOGUE.ACCOUNT_NOT_YOURS.message : null
            }
          />
        </>
      ) : null}
      <div className="actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
