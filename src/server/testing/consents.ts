/*
 * Consent requests the tests of more than one file make.
 */

/**
 * A consent that sets every field a consent keeps, each kind of column among them (dates, kobo past
 * 2^32, JSON, named and whole data categories): reads of it are compared field by field.
 */
export const EVERY_FIELD_CONSENT = {
  payments: [
    {
      type: 'immediate',
      amount: 7_500,
      narration: 'Till 3',
      paypointId: 'pp_1',
      paypointLocationName: 'Ikeja <branch> & co',
    },
    {
      type: 'future',
      amount: 9_007_199_254_740,
      amountType: 'variable',
      narration: 'Rent',
      dueDate: '2027-01-05T08:00:00.000Z',
      startDate: '2027-01-01T00:00:00.000Z',
      endDate: '2027-12-31T23:59:59.999Z',
      frequency: 'monthly',
      interval: 1,
    },
  ],
  dataSharing: { bvnData: true, ninData: ['nin_slip'], bankAccounts: ['primary', 'savings'] },
  formId: 'form_2',
  formCompletion: { templateLiteralValues: { firstName: 'Ada', plan: 'Gold \\ "Plus"' } },
  requirements: { requiresAuth: true, requiresAccount: true },
  actOnBehalfOf: {
    role: { name: 'Director' },
    fullName: 'Ngozi Okafor',
    name: 'Ngozi',
    image: 'https://img.example/n.png',
    location: 'Lagos',
  },
} as const;
