// The Paystack Terminal adapter against Paystack's own test mode (api.paystack.co with a sk_test_
// key) and a terminal of that integration: the calls whose shape only Paystack can confirm.
// Opt-in: it runs only where PAYSTACK_TEST_SECRET_KEY (vitest.config.ts leaves paystack/*.live
// files out otherwise) and PAYSTACK_TERMINAL_TEST_ID are set; .ci/run says when it did not run.
// Nobody taps a card: the request pushed is withdrawn unpaid, and paying it is the simulator's
// test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { openTestDatabase } from '../../testing/test-app';
import { paystackTerminalProvider } from './paystack-provider';

const secretKey = process.env.PAYSTACK_TEST_SECRET_KEY ?? '';
const terminalId = process.env.PAYSTACK_TERMINAL_TEST_ID ?? '';

describe.skipIf(!secretKey.startsWith('sk_test_') || !terminalId)(
  "Paystack Terminal in Paystack's test mode",
  () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let terminal: ReturnType<typeof paystackTerminalProvider>;
    beforeAll(async () => {
      database = await openTestDatabase();
      terminal = paystackTerminalProvider({
        secretKey,
        baseUrl: process.env.PAYSTACK_BASE_URL ?? 'https://api.paystack.co',
        db: database.db,
        clock: systemClock,
      });
    });
    afterAll(() => database.close());

    it('says whether the terminal is there, and knows no made-up one', async () => {
      expect(['ready', 'busy', 'offline']).toContain(await terminal.terminalPresence(terminalId));
      expect(await terminal.terminalPresence('NOSUCHTERMINAL0')).toBe('unknown');
    });

    it('pushes one payment request per reference, and finds it waiting', async () => {
      const reference = `att_live_terminal_${Date.now().toString(36)}`;
      const createdAt = new Date();
      const push = { reference, terminalId, amount: 10_000, description: 'Live check', createdAt };
      const first = await terminal.pushPaymentRequest(push);
      if (first.kind !== 'pushed') throw new Error(`Push refused: ${first.reason}`);
      expect(await terminal.pushPaymentRequest(push)).toEqual(first);
      const asked = { reference, providerReference: null, createdAt };
      expect(await terminal.requeryPaymentRequest(asked)).toEqual({
        kind: 'pending',
        awaiting: null,
        providerReference: first.providerReference,
      });
      // Withdrawn (archived), still read by Fetch, and the terminal is free again: what the
      // simulator assumes of Archive, which Paystack's docs do not say.
      const withdrawn = {
        kind: 'not_taken',
        providerReference: first.providerReference,
        reason: 'withdrawn',
      };
      expect(await terminal.withdrawPaymentRequest(asked)).toEqual(withdrawn);
      expect(
        await terminal.withdrawPaymentRequest({
          ...asked,
          providerReference: first.providerReference,
        }),
      ).toEqual(withdrawn);
      expect(await terminal.terminalPresence(terminalId)).toBe('ready');
    });
  },
);
