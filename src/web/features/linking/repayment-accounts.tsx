import { useState } from 'react';
import { sortAccountsForList } from '../../../domain/account-row';
import { isAccountSupported } from '../../../domain/account-selectability';
import { useUserAccounts } from '../../api/accounts';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { AccountList, accountKey } from './account-list';
import { LinkingPanel } from './linking-panel';
import './linking.css';

/**
 * The repayment accounts of the Future Payments step (spec §2): the payer's accounts to choose
 * from (each row says 'Not authorized yet' until its mandate is), and '+ Link repayment account' / '+ Link different account' opening the
 * account-linking panel in their place.
 */
export function RepaymentAccounts() {
  const accounts = useUserAccounts(true);
  const [linking, setLinking] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());

  if (linking) return <LinkingPanel onClose={() => setLinking(false)} />;

  const listed = sortAccountsForList(accounts.data ?? []);
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
          isSelected={(account) => chosen.has(accountKey(account))}
          isDisabled={(account) => !isAccountSupported(account)}
          onToggle={(account) =>
            setChosen((current) => {
              const next = new Set(current);
              const key = accountKey(account);
              if (!next.delete(key)) next.add(key);
              return next;
            })
          }
        />
      ) : null}
      {accounts.isSuccess ? (
        <Button variant="link" onClick={() => setLinking(true)}>
          {listed.length > 0 ? '+ Link different account' : '+ Link repayment account'}
        </Button>
      ) : null}
    </section>
  );
}
