import { describe, expect, it } from 'vitest';
import { dataPointsText, dataSharingChips, requestedDataCategories } from './data-sharing';
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
      'every category, lists counting their items',
      {
        bankAccounts: ['balance', 'statement'],
        userImages: true,
        ninData: ['name'],
        bvnData: true,
      },
      ['BVN data', 'NIN data', 'User images', 'Bank account information'],
      '5 data points being shared',
    ],
  ])('%s → chips %j, %j', (_, dataSharing, labels, text) => {
    expect(dataSharingChips(dataSharing).map((c) => c.label)).toEqual(labels);
    expect(dataPointsText(dataSharing)).toBe(text);
  });

  it('lists the sub-items of a category on its chip', () => {
    expect(dataSharingChips({ ninData: ['name', 'photo'] })).toEqual([
      { category: 'ninData', label: 'NIN data', items: ['name', 'photo'] },
    ]);
  });

  it('lists requested categories in the spec order', () => {
    expect(requestedDataCategories({ bankAccounts: true, bvnData: true })).toEqual([
      'bvnData',
      'bankAccounts',
    ]);
  });
});
