import type { ReactNode } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { messageOf } from './api';

/** What a list needs of its read (a useInfiniteQuery): its states and its next page. */
type TPagedRead = {
  error: unknown;
  isPending: boolean;
  isSuccess: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/**
 * A list screen's list (payments, consents, events, forms): its failure, Loading…, the empty
 * text once read, a row per item, and the button that asks the next page while there is one.
 * `holdWhileLoading` disables that button while the next page comes.
 */
export function DashboardList<T>({
  read,
  rows,
  rowKey,
  renderRow,
  emptyText,
  moreText,
  holdWhileLoading = false,
}: {
  read: TPagedRead;
  rows: readonly T[];
  rowKey: (row: T) => string;
  renderRow: (row: T) => ReactNode;
  emptyText: string;
  moreText: string;
  holdWhileLoading?: boolean;
}) {
  return (
    <>
      <FormError message={read.error ? messageOf(read.error) : null} />
      {read.isPending && <p role="status">{DASHBOARD_TEXTS.loading}</p>}
      {read.isSuccess && rows.length === 0 && <p>{emptyText}</p>}
      <ul className="dash-list">
        {rows.map((row) => (
          <li key={rowKey(row)} className="dash-row">
            {renderRow(row)}
          </li>
        ))}
      </ul>
      {read.hasNextPage && (
        <Button
          variant="secondary"
          disabled={holdWhileLoading && read.isFetchingNextPage}
          onClick={() => void read.fetchNextPage()}
        >
          {moreText}
        </Button>
      )}
    </>
  );
}
