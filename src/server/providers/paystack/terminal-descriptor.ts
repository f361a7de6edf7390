import { defineProvider } from '../descriptor';
import { PAYSTACK_SETTINGS, paystackKey } from './descriptor';
import { paystackProvider, paystackTerminalProvider } from './paystack-provider';

/**
 * Paystack Terminal (docs/providers/paystack-terminal.md), on Paystack's key: a terminal's
 * payment is refunded by a refund of the transaction it produced, Paystack's, and settled there.
 */
export const PAYSTACK_TERMINAL = defineProvider({
  name: 'paystack-terminal',
  serves: ['acquirer'],
  settings: PAYSTACK_SETTINGS,
  adapter: (settings, { db, clock }) => ({
    name: 'paystack-terminal',
    acquirer: paystackTerminalProvider({ ...paystackKey(settings), db, clock }),
    refunds: paystackProvider({ ...paystackKey(settings), db, clock }).refunds,
  }),
  settledIn: 'paystack',
});
