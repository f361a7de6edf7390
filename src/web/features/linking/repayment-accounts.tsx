import { useEffect, useRef, useState } from 'react';
import {
  BVN_HOLD_BADGES,
  isAccountAuthorized,
  isAccountDebitable,
  sortAccountsForList,
} from '../../../domain/account-row';
import { isAccountSupported } from '../../../domain/account-selectability';
import type { TUserAccount } from '../../../domain/schemas/user-account';
import { useUserAccounts } from '../../api/accounts';
import { useVerifiedBvn } from '../../api/identity';
import type { TRepaymentAccountsProps, TSavedAccountsProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { AccountList } from './account-list';
import { BvnVerification } from './bvn-step';
import { LinkingPanel } from './linking-panel-view';
import './linking.css';

/** The id a grant names an account by; only linked accounts have one worth choosing. */
const idOf = (account: TUserAccount): string | null => account.bankId ?? null;
const linkedOne = (account: TUserAccount) =>
  isAccountSupported(account) && isAccountAuthorized(account) && idOf(account) !== null;
/** A linked account that may be debited now: one linked before BVNs were checked may not. */
const usable = (account: TUserAccount) => linkedOne(account) && isAccountDebitable(account);

/**
 * The repayment accounts of the Future Payments step (spec §2): the payer's accounts to choose
 * from (a row says 'Not authorized yet' until its mandate is, and cannot be chosen until then),
 * and '+ Link repayment account' / '+ Link different account' opening the account-linking panel
 * in their place. An account linked there is chosen once the accounts, read again, show it.
 */
export function RepaymentAccounts({
  consentId,
  selectedIds,
  onToggle,
  onLinked,
  onLinkingChange,
}: TRepaymentAccountsProps) {
  const accounts = useUserAccounts(true);
  const [linking, setLinking] = useState(false);
  // The linked accounts before the panel opened: one that appears after it is the new one.
  const before = useRef<ReadonlySet<string> | null>(null);
  const listed = sortAccountsForList(accounts.data ?? []);

  useEffect(() => {
    if (linking || !before.current || !accounts.data) return;
    const known = before.current;
    const added = accounts.data.filter((a) => usable(a) && !known.has(idOf(a) ?? ''));
    // The accounts read before the panel's link was seen may not show it yet: wait for the read
    // that does (the panel's refetch, landing after it closed), not only the first one.
    if (added.length === 0) return;
    before.current = null;
    for (const account of added) onLinked(idOf(account) ?? '');
  }, [linking, accounts.data, onLinked]);

  const setPanel = (open: boolean) => {
    if (open) before.current = new Set(listed.filter(usable).map((a) => idOf(a) ?? ''));
    setLinking(open);
    onLinkingChange?.(open);
  };

  if (linking) {
    return (
      <LinkingPanel
        consentId={consentId}
        onClose={() => setPanel(false)}
        onLinked={() => void accounts.refetch()}
      />
    );
  }

  return (
    <section className="repayment-accounts" aria-labelledby="repayment-accounts-title">
      <h2 id="repayment-accounts-title" className="section-title">
        Select what accounts you&apos;d like to use for repayment:
      </h2>
      {accounts.isPending ? (
        <p className="loading-line" role="status">
          <Spinner small /> Loading Accounts...
        </p>
      ) : null}
      {accounts.isError ? (
        <p className="form-error" role="alert">
          {accounts.error.message}
        </p>
      ) : null}
      {listed.length > 0 ? (
        <AccountList
          accounts={listed}
          mode="checkbox"
          label="Repayment accounts"
          isSelected={(account) => selectedIds.includes(idOf(account) ?? '')}
          isDisabled={(account) => !usable(account)}
          onToggle={(account) => {
            const id = idOf(account);
            if (id) onToggle(id);
          }}
        />
      ) : null}
      {accounts.isSuccess ? (
        <Button variant="link" onClick={() => setPanel(true)}>
          {listed.length > 0 ? '+ Link different account' : '+ Link repayment account'}
        </Button>
      ) : null}
    </section>
  );
}

/**
 * Pay from a saved account (spec §2 'OneTap'): the payer's linked accounts as one choice; the
 * consent button then reads 'OneTap ****1234' and the account is debited at the grant. Nothing
 * shows for a payer with no linked account.
 */
export function SavedAccounts({ selectedId, onChoose }: TSavedAccountsProps) {
  const accounts = useUserAccounts(true);
  const linked = sortAccountsForList(accounts.data ?? []).filter(
    (a) => linkedOne(a) && a.accountNumber,
  );
  // docs/identity.md: a link made before BVNs were checked debits nothing until the payer
  // verifies a BVN their bank names as the holder's.
  const bvn = useVerifiedBvn(linked.length > 0);
  const [verifying, setVerifying] = useState(false);
  const unverified = bvn.isSuccess && bvn.data === null;
  if (linked.length === 0) return null;
  return (
    <section className="saved-accounts" aria-labelledby="saved-accounts-title">
      <h2 id="saved-accounts-title" className="section-title">
        Pay from a saved account
      </h2>
      <AccountList
        accounts={linked}
        mode="radio"
        label="Saved accounts"
        isSelected={(account) => idOf(account) === selectedId}
        isDisabled={(account) => unverified || !usable(account)}
        onToggle={(account) => {
          const accountId = idOf(account);
          if (accountId && account.accountNumber) {
            onChoose({ accountId, accountNumber: account.accountNumber });
          }
        }}
      />
      {unverified && verifying ? (
        <BvnVerification
          reason={`${BVN_HOLD_BADGES.bvn_unverified}.`}
          onCancel={() => setVerifying(false)}
        />
      ) : null}
      {unverified && !verifying ? (
        <Button variant="link" onClick={() => setVerifying(true)}>
          Verify your BVN
        </Button>
      ) : null}
    </section>
  );
}
