import { describe, expect, it } from 'vitest';
import {
  asksForBvn,
  dataPointsText,
  dataSharingChips,
  dataSubItemText,
  requestedDataCategories,
} from './data-sharing';
import type { TDataSharing } from './schemas/consent';

describe('data sharing', () => {
  it.each<[string, TDataSharing | null, string[], string]>([
    ['nothing', null, [], '0 data points being shared'],
    ['one flag', { bvnData: true }, ['BVN data'], '1 data point being shared'],
    [
      'a flag set to false',
      { bvnData: false, ninData: true },
      ['NIN data'],
      '1 data point being shared',
    ],
    ['an empty list', { userImages: [] }, [], '0 data points being shared'],
    [
      'every category: one data point per chip, however many sub-items a chip names',
      {
        bankAccounts: ['balance', 'statement'],
        userImages: true,
        ninData: ['name'],
        bvnData: true,
      },
      ['BVN data', 'NIN data', 'User images', 'Bank account information'],
      '4 data points being shared',
    ],
    [
      'one category naming two sub-items: one chip, one data point',
      { bvnData: ['fullName', 'dateOfBirth'] },
      ['BVN data'],
      '1 data point being shared',
    ],
  ])('%s → chips %j, %j', (_, dataSharing, labels, text) => {
    expect(dataSharingChips(dataSharing).map((c) => c.label)).toEqual(labels);
    expect(dataPointsText(dataSharing)).toBe(text);
  });

  it('names the sub-items of a category on its chip, in words', () => {
    expect(dataSharingChips({ ninData: ['name', 'photo'], bvnData: true })).toEqual([
      { category: 'bvnData', label: 'BVN data', items: [], text: 'BVN data' },
      {
        category: 'ninData',
        label: 'NIN data',
        items: ['name', 'photo'],
        text: 'NIN data: name, photo',
      },
    ]);
    expect(dataSharingChips({ bvnData: ['fullName', 'date_of_birth'] })[0]?.text).toBe(
      'BVN data: full name, date of birth',
    );
  });

  it.each([
    ['fullName', 'full name'],
    ['home_address', 'home address'],
    ['phone2Number', 'phone2 number'],
    ['Passport photo', 'Passport photo'],
    ['BVN', 'BVN'],
  ])('reads the sub-item %j as %j', (item, text) => {
    expect(dataSubItemText(item)).toBe(text);
  });

  it('lists requested categories in the spec order', () => {
    expect(requestedDataCategories({ bankAccounts: true, bvnData: true })).toEqual([
      'bvnData',
      'bankAccounts',
    ]);
  });
});

describe('asksForBvn', () => {
  it('is true when the consent asks for BVN data, whole or by sub-items', () => {
    expect(asksForBvn({ bvnData: true })).toBe(true);
    expect(asksForBvn({ bvnData: ['fullName'] })).toBe(true);
    expect(asksForBvn({ ninData: true })).toBe(false);
    expect(asksForBvn({ bvnData: false })).toBe(false);
    expect(asksForBvn(null)).toBe(false);
  });
});
