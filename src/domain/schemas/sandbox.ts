import { z } from 'zod/mini';
import { ZInstitutionCode } from './account-link';
import { ZChipReaderData } from './card-terminal';
import { ZKobo } from './consent';
import { ZPrintable, ZText } from './fields';
import { ZAccountNumber } from './user-account';

/*
 * The sandbox network's own calls (docs/sandbox.md): its published fixtures, a person minted with a
 * new BVN, a transfer "sent" into a one-time account, an answer to a 3-D Secure challenge, and
 * moving a one-time account's expiry.
 * They exist only while the sandbox is the payment provider.
 */

/** Stable snake_case words naming the path a fixture triggers. */
const ZScenario = z.string().check(z.regex(/^[a-z][a-z0-9_]*$/));

/** A BVN: 11 digits. */
const ZBvnDigits = z.string().check(z.regex(/^\d{11}$/));
/** A date YYYY-MM-DD. */
const ZIsoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
/** A phone number in E.164. */
const ZE164 = z.string().check(z.regex(/^\+\d{8,15}$/));
const ZCardBrandName = z.enum(['visa', 'mastercard', 'verve']);

/** A person the sandbox's BVN registry knows: the phone is the one the BVN is registered with. */
const ZSandboxPerson = z.object({
  bvn: ZBvnDigits,
  fullName: z.string(),
  dateOfBirth: ZIsoDate,
  phoneNumber: ZE164,
});

/** GET /api/sandbox/fixtures answer. */
export const ZSandboxFixturesResponse = z.object({
  /** The people of the sandbox's BVN registry, holders of the test accounts. */
  people: z.array(ZSandboxPerson),
  banks: z.array(
    z.object({
      institutionCode: z.string(),
      name: z.string(),
      integrations: z.array(
        z.enum(['transactionService', 'altTransactionService', 'card', 'nibssAlt']),
      ),
    }),
  ),
  accounts: z.array(
    z.object({
      accountNumber: z.string(),
      institutionCode: z.string(),
      accountName: z.string(),
      /** The holder's BVN, as name enquiry answers it: one of `people`. */
      bvn: ZBvnDigits,
      scenario: ZScenario,
    }),
  ),
  cards: z.array(
    z.object({
      number: z.string(),
      expiry: z.string(),
      cvv: z.string(),
      pin: z.string(),
      otp: z.string(),
      brand: ZCardBrandName,
      scenario: ZScenario,
      /** The test account the card is issued on: the one account it can link. */
      institutionCode: z.string(),
      accountNumber: z.string(),
    }),
  ),
  /** Card readers the sandbox acquirer registered (docs/terminal.md). */
  readers: z.array(z.object({ serial: z.string(), tid: z.string(), mid: z.string() })),
  /** Chip cards for the sandbox reader: expiry MM/YY, the service code on their track 2. */
  chipCards: z.array(
    z.object({
      number: z.string(),
      expiry: z.string(),
      pin: z.string(),
      serviceCode: z.string(),
      brand: ZCardBrandName,
      scenario: ZScenario,
    }),
  ),
});
export type TSandboxFixturesResponse = z.infer<typeof ZSandboxFixturesResponse>;

/**
 * POST /api/sandbox/people body (docs/sandbox.md "Minting a person"), or no body: the person's
 * name and the phone their new BVN is registered with (any way a Nigerian mobile number is
 * written, as at sign-in); each is made up when absent.
 */
// Nullish: a POST without a body reaches the route as null.
export const ZSandboxPersonRequest = z.nullish(
  z.strictObject({
    fullName: z.optional(ZText(100)),
    phoneNumber: z.optional(ZPrintable(40)),
  }),
);
export type TSandboxPersonRequest = z.infer<typeof ZSandboxPersonRequest>;

/**
 * POST /api/sandbox/people answer: a new BVN, one account per account scenario (the bank and
 * behaviour of that scenario's fixture account) and one card per card scenario (the expiry, CVV,
 * PIN and OTP of its fixture card), issued on the person's account of the scenario the fixture
 * card is issued on. Card numbers are shown here only: the sandbox keeps them hashed.
 */
export const ZSandboxPersonResponse = z.object({
  success: z.literal(true),
  person: z.object({
    ...ZSandboxPerson.shape,
    accounts: z.array(
      z.object({
        scenario: ZScenario,
        institutionCode: z.string(),
        bankName: z.string(),
        accountNumber: z.string(),
        accountName: z.string(),
      }),
    ),
    cards: z.array(
      z.object({
        scenario: ZScenario,
        number: z.string(),
        expiry: z.string(),
        cvv: z.string(),
        pin: z.string(),
        otp: z.string(),
        account: z.object({ institutionCode: z.string(), accountNumber: z.string() }),
      }),
    ),
  }),
});
export type TSandboxPersonResponse = z.infer<typeof ZSandboxPersonResponse>;
export type TSandboxPersonDetails = TSandboxPersonResponse['person'];

/**
 * POST /api/sandbox/transfers body: send `amount` kobo to a one-time transfer account, `from` one
 * of the sandbox's test accounts (its notice then names the sender, as a real NIP notice does),
 * or from a sender the notice does not name.
 */
export const ZSandboxTransferRequest = z.strictObject({
  accountNumber: z.string().check(z.regex(/^\d{10}$/, 'must be 10 digits')),
  amount: ZKobo.check(z.gte(1), z.lte(100_000_000_000)),
  from: z.optional(
    z.strictObject({
      institutionCode: ZInstitutionCode,
      accountNumber: ZAccountNumber,
    }),
  ),
});
export type TSandboxTransferRequest = z.infer<typeof ZSandboxTransferRequest>;

export const SANDBOX_TRANSFER_OUTCOMES = [
  /**
   * At the bank, its notice to the payment not answered yet (docs/sandbox.md "Notices"): sent
   * again until it is, then credited or returned.
   */
  'received',
  /** The exact amount reached an open account: the payment completes. */
  'credited',
  /** Returned to the sender: not the amount the account was issued for. */
  'returned_wrong_amount',
  /** Returned to the sender: the account had expired. */
  'returned_expired',
  /** Returned to the sender: the account had already been paid. */
  'returned_already_paid',
  /** Returned to the sender: no such one-time account. */
  'returned_unknown_account',
  /**
   * Returned to the sender: an account link's test transfer that did not come from the account
   * being linked (another account, or a sender the notice does not name).
   */
  'returned_not_from_account',
] as const;
export type TSandboxTransferOutcome = (typeof SANDBOX_TRANSFER_OUTCOMES)[number];

/** POST /api/sandbox/transfers answer: what became of the transfer, in a sentence for a person. */
export const ZSandboxTransferResponse = z.object({
  success: z.literal(true),
  outcome: z.enum(SANDBOX_TRANSFER_OUTCOMES),
  message: z.string(),
});
export type TSandboxTransferResponse = z.infer<typeof ZSandboxTransferResponse>;

/** POST /api/sandbox/3ds/{reference} body: the payer's answer on the challenge page. */
export const ZSandboxThreeDsAnswer = z.strictObject({ approved: z.boolean() });
export type TSandboxThreeDsAnswer = z.infer<typeof ZSandboxThreeDsAnswer>;

/** POST /api/sandbox/3ds/{reference} answer. */
export const ZSandboxThreeDsResponse = z.object({
  success: z.literal(true),
  status: z.enum(['completed', 'failed']),
  message: z.string(),
});
export type TSandboxThreeDsResponse = z.infer<typeof ZSandboxThreeDsResponse>;

/** POST /api/sandbox/virtual-accounts/{accountNumber}/expire answer: it expires now. */
export const ZSandboxExpireResponse = z.object({ success: z.literal(true), expiresAt: z.string() });
export type TSandboxExpireResponse = z.infer<typeof ZSandboxExpireResponse>;

/** Faults the sandbox reader can play (spec §8): the reader busy, or the transaction timing out. */
export const SANDBOX_READER_FAULTS = ['busy', 'timeout'] as const;

/**
 * POST /api/sandbox/terminal/read body (docs/terminal.md): insert a sandbox chip card into a
 * registered sandbox reader for `amount` kobo and enter `pin` on it.
 */
export const ZSandboxTerminalReadRequest = z.strictObject({
  serial: ZChipReaderData.shape.serial,
  cardNumber: z.string().check(z.regex(/^\d{12,19}$/, 'must be 12 to 19 digits')),
  amount: z.int(),
  pin: z.string().check(z.regex(/^\d{4,12}$/, 'must be 4 to 12 digits')),
  faults: z.optional(z.array(z.enum(SANDBOX_READER_FAULTS)).check(z.maxLength(2))),
});
export type TSandboxTerminalReadRequest = z.infer<typeof ZSandboxTerminalReadRequest>;

/** POST /api/sandbox/terminal/read answer: what the reader hands the page (spec §7 payload). */
export const ZSandboxTerminalReadResponse = ZChipReaderData;
export type TSandboxTerminalReadResponse = z.infer<typeof ZSandboxTerminalReadResponse>;
