import { z } from 'zod/mini';
import { ZChargeTokenAnswer } from './card';
import { ZIdentifier } from './fields';

/*
 * The chip-card terminal's two calls (spec §7, docs/terminal.md). Field names are the
 * processor's (snake_case). `pan`, `track2` and `pin_block` pass through to the acquirer and
 * are never stored or logged.
 */

/** A reader's serial number, as it reports it. */
const ZReaderSerial = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a reader serial number'));

/** POST /api/card-terminal/raven/fetch-keys body (spec §7) */
export const ZTerminalFetchKeysRequest = z.object({ serial: ZReaderSerial });
export type TTerminalFetchKeysRequest = z.infer<typeof ZTerminalFetchKeysRequest>;

/** A registered reader's terminal and merchant ids (spec §7 fetch-keys `data.data`). */
export const ZTerminalIds = z.object({ tid: z.string(), mid: z.string(), serial: z.string() });
export type TTerminalIds = z.infer<typeof ZTerminalIds>;

/** POST /api/card-terminal/raven/fetch-keys answer (spec §7): the terminal and merchant ids. */
export const ZTerminalFetchKeysResponse = z.object({
  status: z.literal(true),
  data: z.object({ status: z.literal(true), data: ZTerminalIds }),
  message: z.string(),
});
export type TTerminalFetchKeysResponse = z.infer<typeof ZTerminalFetchKeysResponse>;

/**
 * What a card reader hands over after a chip card was read and its PIN entered (spec §7
 * chip-purchase payload): the page sends it as it is. `amount` is in kobo; its range is the
 * terminal's rule, checked by the server with the spec's §8 messages, so any integer passes here.
 */
export const ZChipReaderData = z.object({
  /** Track 2 equivalent data: card number, D or =, expiry YYMM, service code, discretionary. */
  track2: z.string().check(z.regex(/^[0-9A-Fa-f;=?]{16,40}$/, 'must be track 2 equivalent data')),
  /** ISO 9564 format 0 PIN block, encrypted under the reader's PIN key: 16 hex digits. */
  pin_block: z.string().check(z.regex(/^[0-9A-Fa-f]{16}$/, 'must be 16 hexadecimal digits')),
  /** Retrieval reference number: the reader's reference of this transaction. */
  rrn: z.string().check(z.regex(/^\d{12}$/, 'must be 12 digits')),
  trans_datetime: z.iso.datetime({ offset: true }),
  tid: z.string().check(z.regex(/^[A-Za-z0-9]{1,16}$/, 'must be a terminal id')),
  mid: z.string().check(z.regex(/^[A-Za-z0-9]{1,32}$/, 'must be a merchant id')),
  /** The chip's data: BER-TLV, hexadecimal. */
  icc_data: z.string().check(z.regex(/^[0-9A-Fa-f]{2,2048}$/, 'must be BER-TLV hexadecimal')),
  pan: z.string().check(z.regex(/^\d{12,19}$/, 'must be 12 to 19 digits')),
  serial: ZReaderSerial,
  /** YYMM, as track 2 writes it. */
  expirydate: z.string().check(z.regex(/^\d{4}$/, 'must be YYMM')),
  amount: z.int(),
});
export type TChipReaderData = z.infer<typeof ZChipReaderData>;

/**
 * POST /api/card-terminal/raven/chip-purchase body: the reader's data (spec §7) and, ours, the
 * immediate payment it pays (`paymentId`) with the consent link (`consentId`) for a payer who is
 * not signed in, as the card calls take them. A purchase is always for one consent's payment:
 * without it the server could not tell which merchant is paid, check the amount against what the
 * payer consented to, or book the ledger and the payment's event (docs/terminal.md).
 */
export const ZChipPurchaseRequest = z.extend(ZChipReaderData, {
  paymentId: ZIdentifier,
  consentId: z.optional(ZIdentifier),
});
export type TChipPurchaseRequest = z.infer<typeof ZChipPurchaseRequest>;

/** POST /api/card-terminal/raven/chip-purchase answer (spec §7): the acquirer approved it. */
export const ZChipPurchaseResponse = z.object({
  status: z.literal(true),
  data: z.object({
    /** ISO 8583 response code: '00'. Refusals answer the catalogue's error instead. */
    responseCode: z.literal('00'),
    approved: z.literal(true),
    rrn: z.string(),
    authCode: z.string(),
    paymentId: z.string(),
    amount: z.number(),
    /** First 6 and last 4 digits: all that is kept of the card. */
    maskedPan: z.string(),
  }),
  message: z.string(),
  /** Ours: a purchase made without sign-in gives its page the attempt's token (ZCardChargeResponse). */
  chargeToken: ZChargeTokenAnswer,
});
export type TChipPurchaseResponse = z.infer<typeof ZChipPurchaseResponse>;

/**
 * POST /api/card-terminal/paystack/push body (ours, docs/providers/paystack-terminal.md): pay a
 * consent's immediate payment at one of the merchant's certified terminals (`terminalId`, its
 * registration's id, from the consent's terminals).
 */
export const ZTerminalPushRequest = z.object({
  paymentId: ZIdentifier,
  terminalId: ZIdentifier,
  /** For a payer who is not signed in: the consent link, as the card calls take it. */
  consentId: z.optional(ZIdentifier),
});
export type TTerminalPushRequest = z.infer<typeof ZTerminalPushRequest>;

/**
 * Its answer: the payment request is on the terminal, waiting for the payer's card. The payment's
 * stream then says completed (approved) or failed (declined, TERMINAL_DECLINED).
 */
export const ZTerminalPushResponse = z.object({
  success: z.literal(true),
  status: z.literal('waiting_for_terminal'),
  paymentId: z.string(),
  /** The terminal's name, as the merchant registered it. */
  terminalName: z.string(),
  /** Ours: a payment made without sign-in gives its page the attempt's token. */
  chargeToken: ZChargeTokenAnswer,
});
export type TTerminalPushResponse = z.infer<typeof ZTerminalPushResponse>;

/**
 * GET /api/card-terminal/paystack/terminals query (ours, docs/providers/paystack-terminal.md): the
 * terminals a payment can be paid at, those its merchant registered.
 */
export const ZPaymentTerminalsQuery = z.object({
  paymentId: ZIdentifier,
  /** For a payer who is not signed in: the consent link, as the card calls take it. */
  consentId: z.optional(ZIdentifier),
});
export type TPaymentTerminalsQuery = z.infer<typeof ZPaymentTerminalsQuery>;

/** A merchant's terminal as the payer chooses it: our id of it and the merchant's name for it. */
export const ZPaymentTerminal = z.object({ id: z.string(), name: z.string() });
export type TPaymentTerminal = z.infer<typeof ZPaymentTerminal>;

/** Its answer: the payment's merchant's terminals, by name; none where it registered none. */
export const ZPaymentTerminalsResponse = z.object({
  success: z.literal(true),
  terminals: z.array(ZPaymentTerminal),
});
export type TPaymentTerminalsResponse = z.infer<typeof ZPaymentTerminalsResponse>;
