/** Consents the end-to-end server prepares in states no merchant call can reach yet (granted). */
export const GRANTED_CONSENT_KEY = 'e2e:granted';

/** The body the end-to-end server creates the granted consent with; re-posting it with its key
 * answers that consent (an idempotent retry must carry the same request). */
export const GRANTED_CONSENT_BODY = {
  payments: [
    { type: 'immediate' as const, amount: 750_000, narration: 'Order #88' },
    ...[1, 2, 3].map((month) => ({
      type: 'future' as const,
      amount: 300_000,
      amountType: 'fixed' as const,
      narration: 'Weekly delivery',
      frequency: 'monthly' as const,
      interval: 1,
      dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
    })),
  ],
  dataSharing: { bvnData: true, bankAccounts: true },
  requirements: { requiresAuth: false, requiresAccount: false },
};
