import { useEffect, useState } from 'react';
import { shouldSearchAccountNumber } from '../../../domain/account-number';
import { ACCOUNT_SEARCH_DEBOUNCE_MS, VALIDATING_CANCEL_AFTER_MS } from '../../../domain/constants';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import {
  BANK_VALIDATION_EVENT,
  ZBankValidationEvent,
  type TBankValidationResult,
} from '../../../domain/schemas/user-account';
import { ApiError } from '../../api/api-error';
import { accountsApi } from '../../api/accounts';

export type TAccountSearch = {
  validating: boolean;
  /** 'Cancel' shows once validating has taken 3 s (spec §2). */
  canCancel: boolean;
  results: TBankValidationResult[];
  error: string | null;
  cancel(): void;
};

type TSearchState = Omit<TAccountSearch, 'cancel'> & { number: string };

const idle = (number: string): TSearchState => ({
  number,
  validating: false,
  canCancel: false,
  results: [],
  error: null,
});

/**
 * Finds an account by its number across banks (spec §2 manual entry, §5): at exactly 10 digits,
 * 500 ms after the last keystroke, the search starts and its results arrive one bank at a time on
 * the bank-validation stream. Fewer digits clear results and errors.
 */
export function useAccountSearch(accountNumber: string): TAccountSearch {
  const [state, setState] = useState<TSearchState>(() => idle(accountNumber));
  const [cancelled, setCancelled] = useState<string | null>(null);
  const active = shouldSearchAccountNumber(accountNumber) && cancelled !== accountNumber;

  useEffect(() => {
    if (!active) return;
    const abort = new AbortController();
    let source: EventSource | null = null;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const update = (change: Partial<TSearchState>) =>
      setState((current) =>
        current.number === accountNumber ? { ...current, ...change } : current,
      );
    const finish = (change: Partial<TSearchState>) => {
      source?.close();
      update({ validating: false, canCancel: false, ...change });
    };

    timers.push(
      setTimeout(() => {
        setState({ ...idle(accountNumber), validating: true });
        timers.push(setTimeout(() => update({ canCancel: true }), VALIDATING_CANCEL_AFTER_MS));
        accountsApi.search(accountNumber, abort.signal).then(
          ({ banks, stream }) => {
            const validationId = banks.results[0]?.validationId ?? '';
            source = new EventSource(
              `/api/events/bank-validation/${encodeURIComponent(validationId)}?ticket=${encodeURIComponent(stream.ticket)}`,
            );
            const found: TBankValidationResult[] = [];
            source.addEventListener(BANK_VALIDATION_EVENT, (message) => {
              const parsed = ZBankValidationEvent.safeParse(JSON.parse(String(message.data)));
              if (!parsed.success) return;
              const event = parsed.data;
              if (event.type === 'result') {
                found.push(event.account);
                update({ results: [...found] });
              } else if (event.type === 'failed') {
                finish({ error: event.message });
              } else {
                finish({
                  error: found.length ? null : ERROR_CATALOGUE.ACCOUNT_NUMBER_NOT_FOUND.message,
                });
              }
            });
            source.addEventListener('error', () => {
              if (source?.readyState === EventSource.CLOSED) {
                finish({ error: ERROR_CATALOGUE.ACCOUNT_VALIDATION_FAILED.message });
              }
            });
          },
          (error: unknown) => {
            if (abort.signal.aborted) return;
            finish({
              error:
                error instanceof ApiError
                  ? error.message
                  : ERROR_CATALOGUE.ACCOUNT_VALIDATION_START_FAILED.message,
            });
          },
        );
      }, ACCOUNT_SEARCH_DEBOUNCE_MS),
    );
    return () => {
      abort.abort();
      source?.close();
      timers.forEach(clearTimeout);
    };
  }, [accountNumber, active]);

  const shown = state.number === accountNumber && active ? state : idle(accountNumber);
  return { ...shown, cancel: () => setCancelled(accountNumber) };
}
