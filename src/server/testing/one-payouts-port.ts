import type { TPayoutsByProvider, TPayoutsPort } from '../providers/payments';

/** One payouts port standing for new work's and every provider's: an adapter tested alone. */
export const onePayoutsPort = (port: TPayoutsPort): TPayoutsByProvider => ({
  newWork: () => port,
  named: () => port,
});
