import {
  AUTH_PARAMS_LINK_TTL_MS,
  BANK_PAGE_MANDATE_TTL_MS,
  ONE_TIME_ACCOUNT_TTL_MS,
  PAPER_MANDATE_TTL_MS,
} from '../../../domain/constants';
import { linkWaysOn, type TCapabilitiesOn } from '../../../domain/capabilities';
import type { TBankIntegration, TDebitMandates } from '../../providers/payments';
import { AppError } from '../../app-error';
import type { TMandateRoute } from './link-lifecycle';

/*
 * How a new link's mandate is authorised, from what its bank offers and what this server serves
 * (spec §2 panel steps), and how long each way waits for its proof.
 */

/**
 * How this account is linked, from what its bank offers (spec §2 panel steps): a test transfer
 * for the transaction service, auth parameters for the alternate service, a paper form for
 * NIBSS's; an account only a card can link goes to the card flow.
 */
export function routeFor(
  offeredByBank: readonly TBankIntegration[],
  service: 'any' | 'alt',
  { mandates, on }: { mandates: TDebitMandates; on: TCapabilitiesOn },
): TMandateRoute {
  // Only the ways this server can serve (docs/going-live.md): the others are as if not offered.
  const offered = linkWaysOn(offeredByBank, on);
  if (service === 'alt') {
    if (offered.includes('altTransactionService')) return 'auth_params';
    throw new AppError('ACCOUNT_NOT_SUPPORTED');
  }
  // The transaction service's mandate, as its provider has it authorised.
  if (offered.includes('transactionService')) {
    return mandates.kind === 'bank_page' ? 'bank_page' : 'test_transfer';
  }
  // A bank that takes NIBSS's paper mandates has its alternate service's mandate on paper.
  if (offered.includes('nibssAlt')) return 'paper';
  if (offered.includes('altTransactionService')) return 'auth_params';
  if (offered.includes('card')) throw new AppError('ACCOUNT_LINKS_BY_CARD');
  throw new AppError('ACCOUNT_NOT_SUPPORTED');
}

export const LINK_TTL_MS: Record<TMandateRoute, number> = {
  test_transfer: ONE_TIME_ACCOUNT_TTL_MS,
  auth_params: AUTH_PARAMS_LINK_TTL_MS,
  paper: PAPER_MANDATE_TTL_MS,
  bank_page: BANK_PAGE_MANDATE_TTL_MS,
};
