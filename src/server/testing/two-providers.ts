import type { TClock } from '../clock';
import {
  startMonnifySimulator,
  type TMonnifySimulator,
} from './monnify-simulator/monnify-simulator';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from './paystack-simulator/paystack-simulator';
import { startTestApp } from './test-app';

/** The test app beside Paystack's and Monnify's simulators, and how to stop all three. */
export type TPaystackAndMonnify = {
  ctx: Awaited<ReturnType<typeof startTestApp>>;
  paystack: TPaystackSimulator;
  monnify: TMonnifySimulator;
  /** Stops the app (proving its books against both providers' reports), then the simulators. */
  close(): Promise<void>;
};

/**
 * Two providers side by side: Paystack's and Monnify's simulators on the test clock, and the app
 * with PAYMENT_PROVIDER=paystack and both providers' settings (Monnify's wallet included), plus
 * the lists and settings of `env`. With `notices`, the app listens and each simulator sends its
 * signed notices to its own POST /api/providers/{name}/notices; without, what a provider took is
 * learnt by asking it.
 */
export async function startPaystackAndMonnify(options: {
  paystackKey: string;
  clock: TClock;
  env: Record<string, string>;
  notices: boolean;
}): Promise<TPaystackAndMonnify> {
  const { clock } = options;
  const paystack = await startPaystackSimulator({
    secretKey: options.paystackKey,
    clock: () => clock.now(),
  });
  const monnify = await startMonnifySimulator({ clock: () => clock.now() });
  const simulatorsClose = async () => {
    await paystack.close();
    await monnify.close();
  };
  try {
    const ctx = await startTestApp({
      clock,
      webhookDelivery: 'manual',
      env: {
        PAYMENT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: options.paystackKey,
        PAYSTACK_BASE_URL: paystack.url,
        // The simulator answers at once: a charge or debit it says is pending is asked again soon.
        PAYSTACK_PENDING_CHECKS_MS: '20,200',
        MONNIFY_API_KEY: monnify.apiKey,
        MONNIFY_SECRET_KEY: monnify.secretKey,
        MONNIFY_CONTRACT_CODE: monnify.contractCode,
        MONNIFY_BASE_URL: monnify.url,
        MONNIFY_WALLET_ACCOUNT_NUMBER: monnify.walletAccountNumber,
        ...options.env,
      },
    });
    if (options.notices) {
      const listening = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      paystack.sendNoticesTo(`${listening}/api/providers/paystack/notices`);
      monnify.sendNoticesTo(`${listening}/api/providers/monnify/notices`);
    }
    return {
      ctx,
      paystack,
      monnify,
      async close() {
        try {
          await ctx.close();
        } finally {
          await simulatorsClose();
        }
      },
    };
  } catch (error) {
    await simulatorsClose();
    throw error;
  }
}
