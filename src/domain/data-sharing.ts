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
};

/** The chips of the Data Sharing step (spec §2): one per category asked for. */
export function dataSharingChips(dataSharing: TDataSharing | null | undefined): TDataSharingChip[] {
  return requestedDataCategories(dataSharing).map((category) => {
    const item = dataSharing?.[category];
    return { category, label: CATEGORY_LABELS[category], items: Array.isArray(item) ? item : [] };
  });
}

/**
 * 'N data point(s) being shared' (spec §2). Each sub-item is a data point; a category asked for
 * as a whole counts as one.
 */
export function dataPointsText(dataSharing: TDataSharing | null | undefined): string {
  const count = dataSharingChips(dataSharing).reduce(
    (sum, chip) => sum + Math.max(chip.items.length, 1),
    0,
  );
  return `${countNoun(count, 'data point')} being shared`;
}
