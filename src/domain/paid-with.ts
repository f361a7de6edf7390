import type { PAYMENT_METHODS } from './constants';

/**
 * How a payment was paid, in the words the payer's page uses (granted-details.ts): a debit of a
 * saved account, a transfer into a one-time account, a card, a chip card at a terminal, or a
 * future payment collected on its mandate.
 */
export type TPaidWithWay = (typeof PAYMENT_METHODS)[number] | 'collection';

export const PAID_WITH_WORDS: Record<TPaidWithWay, string> = {
  account: 'Saved bank account',
  bank_transfer: 'Transfer',
  card: 'Card',
  chip_card: 'Chip card',
  collection: 'Collection',
};

/**
 * The way an executed payment was paid: a future payment is collected on its mandate (it has no
 * attempt); an immediate one by its completed attempt's method.
 */
export const paidWithWay = (
  type: 'immediate' | 'future',
  attemptMethod: (typeof PAYMENT_METHODS)[number] | null,
): TPaidWithWay | null => (type === 'future' ? 'collection' : attemptMethod);
