import { z } from 'zod';
import { baseUrlOf, defineProvider, invalidConfiguration, providerSettings } from '../descriptor';
import { africasTalkingSmsSender } from './africastalking-sender';

/** Africa's Talking's live API host, and its sandbox's (for the sandbox app's username). */
export const AFRICASTALKING_LIVE_URL = 'https://api.africastalking.com';
export const AFRICASTALKING_SANDBOX_URL = 'https://api.sandbox.africastalking.com';

const KEYS = [
  'AFRICASTALKING_USERNAME',
  'AFRICASTALKING_API_KEY',
  'AFRICASTALKING_SENDER_ID',
] as const;

/**
 * Africa's Talking (docs/providers/africastalking.md): its settings where they are all there, or
 * SMS_PROVIDER names it (then all three are required). The sandbox app's username answers only
 * on the sandbox's host: with the live one, every message would be refused, so the start says
 * which host to set.
 */
export const AFRICASTALKING_SETTINGS = providerSettings({
  key: 'africastalking',
  env: {
    /** Africa's Talking's application username ('sandbox' for its sandbox app). */
    AFRICASTALKING_USERNAME: z.string().optional(),
    /** Africa's Talking's API key: sent as the `apiKey` header of each call, never logged. */
    AFRICASTALKING_API_KEY: z.string().optional(),
    /** The alphanumeric sender ID or short code registered with Africa's Talking (`from`). */
    AFRICASTALKING_SENDER_ID: z
      .string()
      .max(11, "must be the sender ID registered with Africa's Talking: at most 11 characters")
      .optional(),
    /** Africa's Talking's API: its live host, its sandbox's, or a simulator of it. */
    AFRICASTALKING_BASE_URL: z.url().default(AFRICASTALKING_LIVE_URL),
  },
  required: [...KEYS],
  secrets: ['AFRICASTALKING_API_KEY'],
  read(env) {
    const given = KEYS.every((name) => env[name]);
    if (env.SMS_PROVIDER !== 'africastalking' && !given) return null;
    const required = (name: (typeof KEYS)[number]): string =>
      env[name] ?? invalidConfiguration(`${name} is required with SMS_PROVIDER=africastalking`);
    const username = required('AFRICASTALKING_USERNAME');
    const apiKey = required('AFRICASTALKING_API_KEY');
    const senderId = required('AFRICASTALKING_SENDER_ID');
    const baseUrl = baseUrlOf(env.AFRICASTALKING_BASE_URL);
    if (username === 'sandbox' && baseUrl === AFRICASTALKING_LIVE_URL) {
      invalidConfiguration(
        `AFRICASTALKING_USERNAME=sandbox is Africa's Talking's sandbox app: set AFRICASTALKING_BASE_URL=${AFRICASTALKING_SANDBOX_URL}`,
      );
    }
    return { username, apiKey, senderId, baseUrl };
  },
});

/** Africa's Talking: SMS. */
export const AFRICASTALKING = defineProvider({
  name: 'africastalking',
  serves: ['sms'],
  settings: AFRICASTALKING_SETTINGS,
  sms: (settings) => africasTalkingSmsSender(settings),
});
