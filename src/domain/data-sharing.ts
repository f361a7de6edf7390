import { DATA_CATEGORIES } from './constants';
import { countNoun } from './plural';
import type { TDataCategory } from './schemas/consent-api';
import type { TDataSharing } from './schemas/consent';

const CATEGORY_LABELS: Readonly<Record<TDataCategory, string>> = {
  bvnData: 'BVN data',
  ninData: 'NIN data',
  userImages: 'User images',
  bankAccounts: 'Bank account information',
};

/** A category is asked for when its flag is true or its list of sub-items is not empty. */
const isRequested = (item: TDataSharing[TDataCategory]): boolean =>
  item === true || (Array.isArray(item) && item.length > 0);

/** The categories a consent asks for, in the spec's order (spec §3, §9). */
export function requestedDataCategories(
  dataSharing: TDataSharing | null | undefined,
): TDataCategory[] {
  if (!dataSharing) return [];
  return DATA_CATEGORIES.filter((category) => isRequested(dataSharing[category]));
}

export type TDataSharingChip = {
  category: TDataCategory;
  label: string;
  /** The sub-items asked for; empty when the whole category is asked for by a flag. */
  items: string[];
  /** What the chip reads: the label, then the sub-items asked for ('BVN data: full name'). */
  text: string;
};

/**
 * A sub-item as a payer reads it: a name written as an identifier ('dateOfBirth', 'home_address')
 * in words ('date of birth', 'home address'); any other text as the merchant wrote it.
 */
export function dataSubItemText(item: string): string {
  if (!/^[a-z][A-Za-z0-9_]*$/.test(item)) return item;
  return item
    .replace(/_+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/**
 * The chips of the Data Sharing step (spec §2 "data categories as chips"): one per category
 * asked for, naming the sub-items when the category lists them.
 */
export function dataSharingChips(dataSharing: TDataSharing | null | undefined): TDataSharingChip[] {
  return requestedDataCategories(dataSharing).map((category) => {
    const item = dataSharing?.[category];
    const items = Array.isArray(item) ? item : [];
    const label = CATEGORY_LABELS[category];
    const text = items.length > 0 ? `${label}: ${items.map(dataSubItemText).join(', ')}` : label;
    return { category, label, items, text };
  });
}

/**
 * 'N data point(s) being shared' (spec §2): one data point per chip, so the count and the chips
 * beside it tell the same story. A category's sub-items are named on its chip.
 */
export function dataPointsText(dataSharing: TDataSharing | null | undefined): string {
  return `${countNoun(dataSharingChips(dataSharing).length, 'data point')} being shared`;
}

/**
 * What the Data Sharing step says when the consent asks for BVN data and the payer has verified
 * no BVN (docs/identity.md "The BVN"): the grant shares only a verified BVN, so none.
 */
export const NO_BVN_TO_SHARE =
  'You have not verified a BVN, so no BVN will be shared. You can verify it when you link an account.';

/** Whether the consent asks for the payer's BVN data. */
export function asksForBvn(dataSharing: TDataSharing | null | undefined): boolean {
  return requestedDataCategories(dataSharing).includes('bvnData');
}
