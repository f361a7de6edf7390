import { describe, expect, it } from 'vitest';
import { amountTypeLabel, cadencePhrase, frequencyLabel } from './frequency-label';

describe('frequencyLabel', () => {
  it.each([
    ['daily', 1, 'Daily'],
    ['weekly', 1, 'Weekly'],
    ['monthly', 1, 'Monthly'],
    ['quarterly', 1, 'Quarterly'],
    ['yearly', 1, 'Yearly'],
    ['monthly', null, 'Monthly'],
    ['daily', 3, 'Every 3 days'],
    ['weekly', 2, 'Every 2 weeks'],
    ['monthly', 2, 'Every 2 months'],
    ['quarterly', 2, 'Every 2 quarters'],
    ['yearly', 5, 'Every 5 years'],
    [null, null, 'One-off'],
  ] as const)('%s every %s → %j', (frequency, interval, label) => {
    expect(frequencyLabel(frequency, interval)).toBe(label);
  });
});

describe('cadencePhrase', () => {
  it.each([
    ['monthly', 1, 'every month'],
    ['weekly', 3, 'every 3 weeks'],
  ] as const)('%s every %s → %j', (frequency, interval, phrase) => {
    expect(cadencePhrase(frequency, interval)).toBe(phrase);
  });
});

describe('amountTypeLabel', () => {
  it.each([
    ['fixed', 'Fixed'],
    ['variable', 'Variable'],
  ] as const)('%s → %s', (type, label) => {
    expect(amountTypeLabel(type)).toBe(label);
  });
});
