import { ERROR_CATALOGUE } from './errors';

/**
 * What 'Save Your Card' says when the bank of the chosen account takes no cards: the spec's 'Not
 * supported' (ACCOUNT_NOT_SUPPORTED), said of what, and the way on.
 */
export function cardSaveNotSupportedMessage(bankName: string): string {
  return `${ERROR_CATALOGUE.ACCOUNT_NOT_SUPPORTED.message}: ${bankName} does not take cards, so your card cannot be saved to this account. Choose another account, or enter another account number.`;
}
