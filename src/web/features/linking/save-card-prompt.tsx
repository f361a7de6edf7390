import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { cardSaveNotSupportedMessage } from '../../../domain/card-save';
import {
  CARD_SAVE_INITIAL_WAIT_MS,
  CARD_SAVE_MAX_POLLS,
  CARD_SAVE_POLL_INTERVAL_MS,
} from '../../../domain/constants';
import type { TBankValidationResult } from '../../../domain/schemas/user-account';
import { ApiError } from '../../api/api-error';
import { accountsApi, USER_ACCOUNTS_KEY } from '../../api/accounts';
import { paymentsApi } from '../../api/payments';
import type { TSaveCardPromptProps } from '../../contracts/consent-slots';
import { BusyOverlay } from '../../ui/busy-overlay';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { AccountList } from './account-list';
import { AccountNumberInput } from './account-number-input';
import { useAccountSearch } from './use-account-search';
import './linking.css';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Saves the card to the account chosen, then reads the payer's accounts until it shows there:
 * its id, or null once the reads run out.
 */
async function saveCardTo(paymentId: string, chosen: TBankValidationResult) {
  // Paid without sign-in: the charge's token this page holds proves the card is the payer's.
  const chargeToken = paymentsApi.chargeTokenOf(paymentId);
  await accountsApi.saveCard({
    paymentId,
    accountNumber: chosen.accountNumber,
    institutionCode: chosen.institutionCode,
    ...(chargeToken ? { chargeToken } : {}),
  });
  await pause(CARD_SAVE_INITIAL_WAIT_MS);
  for (let poll = 0; poll < CARD_SAVE_MAX_POLLS; poll += 1) {
    const { accounts } = await accountsApi.list();
    const saved = accounts.find(
      (a) =>
        a.accountNumber === chosen.accountNumber &&
        a.institutionCode === chosen.institutionCode &&
        a.bankId,
    );
    if (saved?.bankId) return saved.bankId;
    await pause(CARD_SAVE_POLL_INTERVAL_MS);
  }
  return null;
}

/**
 * 'Save Your Card' (spec §2, §4): after a payer paid with 'Save this card for future payments'
 * ticked (signed in, or signed in since on the page that paid), the account the card belongs to,
 * with no card typed again and no test charge: its number, found at its bank ('Validating...'),
 * chosen, then 'Save Card' ('Saving Your Card'). After the save the page waits 1.5 s and reads
 * the payer's accounts up to 10 times, 200 ms apart, until the account shows, and goes on with it.
 */
export function SaveCardPrompt({ paymentId, onDone }: TSaveCardPromptProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [accountNumber, setAccountNumber] = useState('');
  const [chosen, setChosen] = useState<TBankValidationResult | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Banks of this number that said they take no cards: their rows are not offered again.
  const [refused, setRefused] = useState<readonly string[]>([]);
  const search = useAccountSearch(accountNumber);
  const shownError = error ?? search.error;

  const save = async () => {
    // 'Save Card' is enabled only once an account is chosen.
    if (!chosen) return;
    setSaving(true);
    setError(null);
    try {
      const accountId = await saveCardTo(paymentId, chosen);
      if (accountId) {
        void queryClient.invalidateQueries({ queryKey: USER_ACCOUNTS_KEY });
        onDone({ accountId, accountNumber: chosen.accountNumber });
        return;
      }
      onDone(null);
    } catch (caught) {
      setSaving(false);
      if (caught instanceof ApiError && caught.code === 'ACCOUNT_NOT_SUPPORTED') {
        // The way on is another account: this one is set aside, the others stay to choose.
        setRefused((banks) => [...banks, chosen.institutionCode]);
        setChosen(null);
        setError(cardSaveNotSupportedMessage(chosen.bankName));
        return;
      }
      setError(
        caught instanceof ApiError ? caught.message : 'Failed to save card. Please try again.',
      );
    }
  };

  return (
    <section className="save-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        Save Your Card
      </h2>
      <AccountNumberInput
        id={`${id}-number`}
        value={accountNumber}
        onChange={(digits) => {
          setError(null);
          setChosen(null);
          setRefused([]);
          setAccountNumber(digits);
        }}
        describedBy={[`${id}-hint`, ...(shownError ? [`${id}-error`] : [])]}
        invalid={Boolean(shownError)}
      />
      <p id={`${id}-hint`} className="secondary-text">
        The account this card belongs to: the card is saved to it, to pay with next time.
      </p>
      {search.validating ? (
        <p className="loading-line" role="status">
          <Spinner small /> Validating...
        </p>
      ) : null}
      {shownError ? (
        <p id={`${id}-error`} className="form-error" role="alert">
          {shownError}
        </p>
      ) : null}
      {search.results.length > 0 ? (
        <AccountList
          accounts={search.results}
          mode="radio"
          label="Accounts found"
          isSelected={(account) => account.institutionCode === chosen?.institutionCode}
          isDisabled={(account) => saving || refused.includes(account.institutionCode ?? '')}
          onToggle={(account) =>
            setChosen(
              search.results.find((r) => r.institutionCode === account.institutionCode) ?? null,
            )
          }
        />
      ) : null}
      <div className="actions">
        <Button disabled={!chosen || saving} onClick={() => void save()}>
          Save Card
        </Button>
        <Button variant="secondary" disabled={saving} onClick={() => onDone(null)}>
          Cancel
        </Button>
      </div>
      {saving ? <BusyOverlay title="Saving Your Card" /> : null}
    </section>
  );
}
