import { formatLagosDateTime } from './payment-date';

/*
 * A payer's complaint about a payment (docs/payer-consents.md "Complaints"): raised from
 * /consents, given a reference at once, told to the merchant (webhook payment.complaint_raised)
 * and to the operator (their list of open complaints), and moved through the states below by one
 * table, as every lifecycle here is.
 *
 * The targets are settings (COMPLAINT_ACKNOWLEDGE_HOURS, COMPLAINT_RESOLVE_DAYS). Their defaults
 * follow the CBN's published guide to lodging a complaint against a financial institution
 * (Consumer Protection Department, CPD/GEN/GUIDE/03, 2022): a complaint not acknowledged with a
 * tracking number within three days, or not resolved within two weeks, may be taken to the CBN.
 * That guide, not the Consumer Protection Regulations' own text, is what we cite.
 */

export const COMPLAINT_STATES = [
  /** Raised by the payer: its reference given, the merchant and the operator told. */
  'received',
  /** Someone answerable has read it and said so to the payer. */
  'acknowledged',
  /** Settled, with what was done written for the payer. */
  'resolved',
] as const;
export type TComplaintState = (typeof COMPLAINT_STATES)[number];

/** Every move a complaint may make: the states it leaves from and the one it reaches. */
export const COMPLAINT_TRANSITIONS = {
  acknowledge: { from: ['received'], to: 'acknowledged' },
  /** A complaint may be resolved at once, acknowledged or not. */
  resolve: { from: ['received', 'acknowledged'], to: 'resolved' },
} as const satisfies Record<string, { from: readonly TComplaintState[]; to: TComplaintState }>;
export type TComplaintEdge = keyof typeof COMPLAINT_TRANSITIONS;

/** What a payer may complain of, as they pick it. */
export const COMPLAINT_CATEGORIES = [
  'not_authorised',
  'wrong_amount',
  'charged_twice',
  'refund_not_received',
  'other',
] as const;
export type TComplaintCategory = (typeof COMPLAINT_CATEGORIES)[number];

export const COMPLAINT_CATEGORY_LABELS: Readonly<Record<TComplaintCategory, string>> = {
  not_authorised: 'I did not agree to this payment',
  wrong_amount: 'The amount is wrong',
  charged_twice: 'I was charged twice',
  refund_not_received: 'My refund has not arrived',
  other: 'Something else',
};

/** The longest account of a complaint a payer may write, and a resolution's note. */
export const COMPLAINT_DESCRIPTION_MAX = 1_000;
export const COMPLAINT_RESOLUTION_MAX = 1_000;

/** Defaults of the settings: three days to acknowledge, two weeks to resolve (the CBN's guide). */
export const DEFAULT_COMPLAINT_ACKNOWLEDGE_HOURS = 72;
export const DEFAULT_COMPLAINT_RESOLVE_DAYS = 14;

export type TComplaintTargets = { acknowledgeHours: number; resolveDays: number };

const HOUR_MS = 60 * 60 * 1000;

/** When a complaint raised at `raisedAt` should be acknowledged and resolved by. */
export function complaintDeadlines(
  raisedAt: Date,
  targets: TComplaintTargets,
): { acknowledgeBy: Date; resolveBy: Date } {
  return {
    acknowledgeBy: new Date(raisedAt.getTime() + targets.acknowledgeHours * HOUR_MS),
    resolveBy: new Date(raisedAt.getTime() + targets.resolveDays * 24 * HOUR_MS),
  };
}

/** A complaint's reference as the payer quotes it: 'CP-' and eight letters or digits. */
export const COMPLAINT_REFERENCE_PATTERN = /^CP-[0-9A-Z]{8}$/;

/** The letters a reference is made of: no 0/O or 1/I, which a payer misreads over the phone. */
export const COMPLAINT_REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Eight letters of a 32-letter alphabet: 2^40 references, one for each serial below this. */
export const COMPLAINT_REFERENCE_SERIALS = 2n ** 40n;

/*
 * The serial is spread over the 2^40 references by x -> (x * MULTIPLIER + OFFSET) mod 2^40 and
 * then x -> x XOR (x >> 20), each one-to-one (the multiplier is odd, so it has an inverse mod
 * 2^40; the shift leaves the high half to undo the low), so that consecutive complaints do not
 * read as consecutive numbers. The multiplier is 2^40 over the golden ratio, made odd.
 */
const REFERENCE_MULTIPLIER = 679_477_616_759n;
const REFERENCE_OFFSET = 1_442_695_040_888n % 2n ** 40n;

/**
 * The reference of the complaint numbered `serial` (a database sequence's value, from 0): a
 * different reference for every serial, so two complaints never share one.
 */
export function complaintReference(serial: bigint): string {
  if (serial < 0n || serial >= COMPLAINT_REFERENCE_SERIALS) {
    throw new RangeError(`complaintReference: serial ${serial} is out of range`);
  }
  let spread = (serial * REFERENCE_MULTIPLIER + REFERENCE_OFFSET) % COMPLAINT_REFERENCE_SERIALS;
  spread ^= spread >> 20n;
  let letters = '';
  for (let i = 0; i < 8; i += 1) {
    letters = COMPLAINT_REFERENCE_ALPHABET[Number(spread % 32n)] + letters;
    spread /= 32n;
  }
  return `CP-${letters}`;
}

export const COMPLAINT_STATE_LABELS: Readonly<Record<TComplaintState, string>> = {
  received: 'Received',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

type TComplaintClock = {
  acknowledgeBy: string;
  resolveBy: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
};

/** One target: when it was met, or by when it should be, said to be late once that has passed. */
function targetLine(met: string, due: string, by: string, metAt: string | null, now: Date): string {
  if (metAt) return `${met} ${formatLagosDateTime(metAt)}`;
  const late = new Date(by).getTime() < now.getTime();
  return `${due} ${formatLagosDateTime(by)}${late ? ' (late)' : ''}`;
}

/**
 * The lines a payer reads under a complaint: each target with when it was met, or by when it
 * should be, or that it is late. A resolved complaint was acknowledged by its resolution at the
 * latest (the service sets both).
 */
export function complaintClockLines(complaint: TComplaintClock, now: Date): string[] {
  return [
    targetLine(
      'Acknowledged',
      'To be acknowledged by',
      complaint.acknowledgeBy,
      complaint.acknowledgedAt,
      now,
    ),
    targetLine('Resolved', 'To be resolved by', complaint.resolveBy, complaint.resolvedAt, now),
  ];
}

/** The /consents section's words. */
export const COMPLAINT_TEXTS = {
  heading: 'Complaints',
  intro:
    'Something wrong with a payment? Raise a complaint: you get a reference at once, and we tell the merchant.',
  raise: 'Raise a complaint',
  payment: 'Payment',
  choosePayment: 'Choose a payment',
  category: 'What went wrong',
  chooseCategory: 'Choose what went wrong',
  describe: 'Tell us what happened.',
  description: 'Tell us what happened',
  send: 'Send complaint',
  cancel: 'Cancel',
  noPayments: 'You have no payments to complain about.',
  none: 'You have not raised a complaint.',
  listHeading: 'Your complaints',
  loading: 'Loading your complaints...',
  failed: 'Your complaints could not be loaded.',
} as const;

/** What the payer reads once a complaint is raised (or the payment's open one is answered). */
export const complaintRaisedText = (reference: string): string =>
  `Your complaint is received. Its reference is ${reference}: quote it when you ask about it.`;
