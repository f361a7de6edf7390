/*
 * The payer's rights over their data (docs/payer-rights.md), under the Nigeria Data Protection
 * Act 2023 (ss.34–38) and the NDPC's General Application and Implementation Directive 2025
 * (arts 36–40): a copy of everything held about them, its correction, and its erasure, each a
 * request answered within a month and tracked on /consents. What must be kept all the same
 * (money records under the Money Laundering (Prevention and Prohibition) Act 2022, a consent's
 * record while its mandate is live) is kept, and the answer says what and why.
 */

import { EXPORT_PAGE_PARAM, PAYER_CONSENTS_PATH } from './payer-pages';

/** What a payer may ask for. */
export const PAYER_RIGHTS_KINDS = [
  // A copy of everything held about them, as one JSON file (and a printable page).
  'export',
  // Everything not under a legal hold erased or made anonymous.
  'erasure',
  // The name they gave changed.
  'correction',
] as const;
export type TPayerRightsKind = (typeof PAYER_RIGHTS_KINDS)[number];

/** Where a request stands. */
export const PAYER_RIGHTS_STATUSES = [
  // Received, and being worked on (a file prepared, an erasure waiting for its job).
  'received',
  // Answered: the file ready, the data erased, the name changed.
  'done',
] as const;
export type TPayerRightsStatus = (typeof PAYER_RIGHTS_STATUSES)[number];

/**
 * The law's clock: a request is answered within one month of its receipt (NDPA 2023 s.34, GAID
 * 2025 art 36). The same day of the next month, or its last day when it has no such day.
 */
export function answerDueAt(receivedAt: Date): Date {
  const due = new Date(receivedAt);
  const day = due.getUTCDate();
  due.setUTCDate(1);
  due.setUTCMonth(due.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth() + 1, 0)).getUTCDate();
  due.setUTCDate(Math.min(day, lastDay));
  return due;
}

/** How long the link to a prepared copy opens it: a week, then a new request is needed. */
export const EXPORT_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1_000;

/** What is kept after an erasure, and why: each a hold the law places on the payer's data. */
export const LEGAL_HOLDS = {
  money: {
    what: 'Your payments, refunds and payouts, and the accounts (with the names on them, as a refund to a transfer’s sender) and cards (masked) they used',
    why: 'The Money Laundering (Prevention and Prohibition) Act 2022 requires us to keep records of every transaction for 5 years after it.',
  },
  consentRecord: {
    what: 'The signed record of each consent you granted, with what the merchant sent with it (its reference and notes)',
    why: 'It is the authority for the payments kept, and is kept with them, as is what the merchant matches them to its orders by; a mandate still being stopped at your bank keeps its record while it is live.',
  },
} as const;
export type TLegalHold = keyof typeof LEGAL_HOLDS;

/**
 * The answer to an erasure: what was kept, and why, hold by hold; of the holds given (those its
 * answer stored), or of every hold (what an erasure may keep, said before it is asked).
 */
export const erasureKept = (
  holds: readonly TLegalHold[] = Object.keys(LEGAL_HOLDS) as TLegalHold[],
): Array<{ hold: TLegalHold; what: string; why: string }> =>
  holds.map((hold) => ({ hold, ...LEGAL_HOLDS[hold] }));

/** The name an erased payer's row keeps, and what its number becomes (unique, reaching no one). */
export const ERASED_NAME = 'Erased payer';
export const erasedPhoneNumber = (payerId: string): string => `erased:${payerId}`;

/** Names a payer may give: what sign-up takes (identity.ts), trimmed. */
export const NAME_MAX_LENGTH = 100;

/**
 * Whether the payer may change their name: the one they gave, yes; one their BVN verified is the
 * bank's record of them, which a merchant they share it with relies on.
 */
export const nameCorrection = (payer: {
  bvnVerified: boolean;
}): { correctable: true } | { correctable: false; why: string } =>
  payer.bvnVerified
    ? {
        correctable: false,
        why: 'Your name was verified with your BVN, so it is the name your bank holds. To correct it, ask your bank to correct your BVN record.',
      }
    : { correctable: true };

/** The SMS telling the payer their copy is ready. */
export const exportReadyMessage = (url: string, expiresOn: string): string =>
  `Oya Money: the copy of your data you asked for is ready. Download it by ${expiresOn}: ${url}`;

/**
 * The link in that SMS: the printable page (/consents?my-data={token}), which also offers the
 * JSON file (`GET /my-data/{token}`): a phone opens a page it can read, not a file it must keep.
 */
export const exportPageUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/$/, '')}${PAYER_CONSENTS_PATH}?${EXPORT_PAGE_PARAM}=${encodeURIComponent(token)}`;

/** The file's name when downloaded. */
export const exportFileName = (preparedAt: string): string =>
  `oya-money-my-data-${preparedAt.slice(0, 10)}.json`;

/** The /consents section's words. */
export const PAYER_RIGHTS_TEXTS = {
  heading: 'Your data',
  intro:
    'You can get a copy of everything we hold about you, correct your name, or ask us to erase your data. We answer each request within a month.',
  download: 'Download my data',
  erase: 'Erase my data',
  eraseConfirm:
    'Erasing stops every active consent and its future payments, tells the merchants, and signs you out. Your name, number, BVN, passkeys, linked accounts and form answers are erased; what the law makes us keep stays, as listed below.',
  eraseConfirmButton: 'Erase my data',
  erasePasskey: 'You will confirm with your passkey.',
  keptHeading: 'What we keep, and why',
  correctName: 'Correct my name',
  nameLabel: 'Your name',
  saveName: 'Save name',
  requestsHeading: 'Your requests',
  erasureAskedHeading: 'We are erasing your data',
  erasureNotApproved: 'Your passkey did not approve the erasure. Nothing was changed.',
  loading: 'Loading your requests...',
  failed: 'Your requests could not be loaded.',
  copyPreparing: 'Being prepared. We will send you a link by SMS when it is ready.',
  copyLink: 'Open your copy',
  copyHeading: 'Your copy',
  copyIntro:
    'Everything we hold about you, as in the file. Print this page or save it as a PDF from your browser.',
  copyPrint: 'Print this page',
  copyFile: 'Download the file (JSON)',
  copyGone:
    'This link has expired or is not right. Ask for a new copy from Your data on your consents page.',
} as const;

/**
 * What the page says once an erasure is asked, and keeps saying after the erasure signs the payer
 * out: when it was received and by when it is answered at the latest.
 */
export const erasureAskedLine = (
  request: { receivedAt: string; dueAt: string },
  formatDay: (iso: string) => string,
): string =>
  `We received your request on ${formatDay(request.receivedAt)}. Your data will be erased within minutes, and by ${formatDay(request.dueAt)} at the latest, and you will be signed out. What we keep is listed below.`;

/**
 * How often the page reads the payer's requests again while a copy or an erasure waits for its
 * job (which answers within seconds): 30 reads a minute, well under the payer's lists' limit.
 */
export const REQUESTS_POLL_MS = 2_000;

/** The printable page's sections, in the file's order, each under its own title. */
export const EXPORT_SECTIONS = {
  phoneHistory: 'Phone numbers',
  passkeys: 'Passkeys',
  accounts: 'Linked accounts and cards',
  consents: 'Consents, every version of their record, and their history',
  payments: 'Payments',
  refunds: 'Refunds',
  payouts: 'Money sent to your accounts',
  receipts: 'Receipts',
  complaints: 'Complaints',
  forms: 'Form answers and uploaded files',
  sharedWithMerchants: 'Data shared with merchants',
  bvnLookups: 'Who looked at your BVN',
  signIns: 'Sign-ins',
  requests: 'Your requests about your data',
} as const;

/** A field's name in the file as the printable page titles it: 'createdAt' → 'Created at'. */
export const exportFieldLabel = (key: string): string => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** How long a ready copy's link lasts, as the payer reads it (its day as `formatDay` gives). */
export const copyOpensUntil = (expiresAt: string, formatDay: (iso: string) => string): string =>
  `it opens your copy until ${formatDay(expiresAt)}`;

/**
 * A copy's state as the payer reads it: being prepared, ready with its link's expiry (the server's
 * `expiresAt`), or over.
 */
export function exportState(
  request: { status: TPayerRightsStatus; expiresAt: string | null },
  now: Date,
  formatDay: (iso: string) => string,
): string {
  const { expiresAt } = request;
  if (request.status === 'received' || !expiresAt) return PAYER_RIGHTS_TEXTS.copyPreparing;
  return Date.parse(expiresAt) > now.getTime()
    ? `Ready. We sent the link to your phone by SMS; ${copyOpensUntil(expiresAt, formatDay)}.`
    : `The link expired on ${formatDay(expiresAt)}. Ask again for a new copy.`;
}

const KIND_LABELS: Record<TPayerRightsKind, string> = {
  export: 'Copy of your data',
  erasure: 'Erasure of your data',
  correction: 'Correction of your name',
};

/** One request as /consents and the operator list it. */
export type TPayerRightsRow = {
  kind: TPayerRightsKind;
  status: TPayerRightsStatus;
  receivedAt: string;
  dueAt: string;
  doneAt: string | null;
};

/** A request's line: what it was, and received, due or done when (dates as `formatDay` gives). */
export function payerRightsLine(
  row: TPayerRightsRow,
  formatDay: (iso: string) => string,
): { label: string; state: string } {
  const received = `received ${formatDay(row.receivedAt)}`;
  return {
    label: KIND_LABELS[row.kind],
    state:
      row.status === 'done' && row.doneAt
        ? `${received}, done ${formatDay(row.doneAt)}`
        : `${received}, answered by ${formatDay(row.dueAt)}`,
  };
}
