import { CAPABILITIES } from '../../domain/capabilities';
import { defineProvider } from '../providers/descriptor';
import { sandboxPaymentProvider } from './sandbox-provider';
import { sandboxSmsSender } from './sandbox-sms';

/**
 * The sandbox (docs/sandbox.md): every capability, no settings; never beside a live key (a live
 * key moves real money, and no sandbox stands in for what its providers lack).
 */
export const SANDBOX = defineProvider({
  name: 'sandbox',
  serves: CAPABILITIES,
  settings: null,
  adapter: (_settings, deps) =>
    deps.live
      ? null
      : {
          name: 'sandbox',
          ...sandboxPaymentProvider({
            cards: deps.sandboxCards,
            db: deps.db,
            clock: deps.clock,
            answerDelayMs: deps.sandboxAnswerDelayMs,
            deliverBvnCode: deps.deliverBvnCode,
          }),
        },
  sms: (_settings, { db }) => sandboxSmsSender(db),
});
