import type { TAmountType, TFrequency } from './schemas/consent';

const ADVERBS: Readonly<Record<TFrequency, string>> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};

const UNITS: Readonly<Record<TFrequency, readonly [singular: string, plural: string]>> = {
  daily: ['day', 'days'],
  weekly: ['week', 'weeks'],
  monthly: ['month', 'months'],
  quarterly: ['quarter', 'quarters'],
  yearly: ['year', 'years'],
};

/**
 * The frequency label of a schedule row (spec §2): 'Monthly' for every month, 'Every 2 months'
 * for a longer interval, 'One-off' for a payment that does not repeat.
 */
export function frequencyLabel(frequency: TFrequency | null, interval: number | null): string {
  if (frequency === null) return 'One-off';
  if (interval === null || interval === 1) return ADVERBS[frequency];
  return `Every ${interval} ${UNITS[frequency][1]}`;
}

/** 'every month', 'every 2 months': the cadence inside a sentence. */
export function cadencePhrase(frequency: TFrequency, interval: number | null): string {
  const [singular, plural] = UNITS[frequency];
  return interval === null || interval === 1 ? `every ${singular}` : `every ${interval} ${plural}`;
}

/** 'Fixed' or 'Variable' (spec §2 schedule row). */
export function amountTypeLabel(amountType: TAmountType): string {
  return amountType === 'fixed' ? 'Fixed' : 'Variable';
}
