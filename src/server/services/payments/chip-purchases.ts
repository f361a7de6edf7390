import { createHmac } from 'node:crypto';
import { detectCardBrand, type TCardBrand } from '../../../domain/card-brand';
import {
  TERMINAL_CURRENCY_CODE,
  TERMINAL_MAX_AMOUNT_KOBO,
  TERMINAL_TRANSACTION_TYPE,
} from '../../../domain/constants';
import { EmvFormatError } from '../../../domain/emv/hex';
import { emvDateOf, readIccData, type TIccData } from '../../../domain/emv/icc-data';
import { parseTrack2, serviceCodeHasChip } from '../../../domain/emv/track2';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { canonicalJson } from '../../../domain/schemas/auth';
import type {
  TChipPurchaseRequest,
  TChipPurchaseResponse,
  TTerminalFetchKeysResponse,
} from '../../../domain/schemas/card-terminal';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import { terminalPurchases } from '../../db/schema';
import type {
  TCardSummary,
  TChipDeclineReason,
  TChipPurchaseOutcome,
  TReaderAcquirerPort,
  TTerminalReader,
} from '../../providers/payments';
import { AppError } from '../../app-error';
import { obfuscateCard } from '../../../domain/card-number';
import { BANK_CALL_RETRY_WAIT_MS, runIdempotentCall, type TStoredAnswer } from '../idempotency';
import { paidWith, runAttempt } from './attempts/runner';
import { insertWhere } from '../../db/insert-where';
import { newChargeToken } from './charge-owners';
import { loadPayable, type TPaymentAccess } from './payment-records';
import { recordAcquirerAnswer, settleChipPurchase } from './attempts/settlements';
import { storedSecret } from '../../crypto/server-secrets';
import { usable } from '../../providers/off';

/*
 * Paying an immediate payment with a chip card in a card reader (spec §7 card-terminal/raven
 * calls; docs/terminal.md). The reader's data is checked before anything is recorded: its chip
 * data, track 2 against the card number and expiry, a chip card, the reader registered, the amount
 * in range and the payment's. Then, as for a card: the attempt is recorded as 'charging' under the
 * payment's lock (one charge per payment at a time), the acquirer is asked outside any transaction,
 * and its answer is booked in a transaction of its own with the ledger and the stream's event
 * (attempts/settlements.ts). A purchase whose answer was lost stays 'charging' until the acquirer
 * is asked about its reference (attempts/reconcile.ts). The card number, track 2 and PIN block live
 * in memory for this one call: only the masked card number and the rrn are kept.
 */

type TTerminalContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** What is kept of a chip card: first 6, last 4, and its brand where the spec's rules know it. */
type TChipCardSummary = Omit<TCardSummary, 'brand'> & { brand: TCardBrand | null };

export const TERMINAL_KEYS_MESSAGE = 'Terminal keys fetched';
export const TERMINAL_APPROVED_MESSAGE = 'Transaction approved';

/**
 * The acquirer of card readers. A server whose terminal is pushed (Paystack Terminal,
 * terminal-pushes.ts) registers no reader: every reader is unknown to it.
 */
function readerAcquirer(ctx: Pick<TAppContext, 'providers'>): TReaderAcquirerPort {
  const acquirer = usable(ctx.providers.payments.acquirer);
  if (acquirer.kind === 'push') throw new AppError('TERMINAL_READER_UNKNOWN');
  return acquirer;
}

/** POST /api/card-terminal/raven/fetch-keys: a registered reader's terminal and merchant ids. */
export async function fetchTerminalKeys(
  ctx: Pick<TAppContext, 'providers'>,
  serial: string,
): Promise<TTerminalFetchKeysResponse> {
  const reader = await readerAcquirer(ctx).terminalFetchKeys(serial);
  if (!reader) throw new AppError('TERMINAL_READER_UNKNOWN');
  return { status: true, data: { status: true, data: reader }, message: TERMINAL_KEYS_MESSAGE };
}

/** What the payer reads when the acquirer or the issuer refuses (spec §8 chip terminal). */
function refusalOf(reason: TChipDeclineReason): AppError {
  const declined = ERROR_CATALOGUE.TERMINAL_DECLINED.message;
  switch (reason) {
    case 'insufficient_funds':
      return new AppError('TERMINAL_DECLINED', `${declined}: Insufficient funds`);
    case 'incorrect_pin':
      return new AppError('TERMINAL_DECLINED', `${declined}: Incorrect PIN`);
    case 'declined':
      return new AppError('TERMINAL_DECLINED');
    case 'format_error':
      return new AppError('TERMINAL_INVALID_FORMAT');
    case 'invalid_amount':
      return new AppError('TERMINAL_INVALID_PARAMETERS');
    case 'invalid_terminal':
      return new AppError('TERMINAL_READER_UNKNOWN');
    case 'expired':
      return new AppError('TERMINAL_TIMEOUT');
  }
}

/** Reads EMV data, a malformed field answering spec §8 'Invalid transaction format…'. */
function readEmv<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof EmvFormatError) throw new AppError('TERMINAL_INVALID_FORMAT');
    throw error;
  }
}

/**
 * The reader's data checked against itself and the reader (docs/terminal.md "Checks"), in the
 * order a terminal would refuse it. Answers the chip data and the card's summary.
 */
function checkReaderData(
  body: TChipPurchaseRequest,
  reader: TTerminalReader | null,
): { icc: TIccData; card: TChipCardSummary } {
  const icc = readEmv(() => readIccData(body.icc_data));
  const track = readEmv(() => parseTrack2(body.track2));
  if (track.pan !== body.pan || track.expiry !== body.expirydate) {
    throw new AppError('TERMINAL_INVALID_FORMAT');
  }
  if (!serviceCodeHasChip(track.serviceCode)) throw new AppError('TERMINAL_CHIP_REQUIRED');
  if (!reader || reader.tid !== body.tid || reader.mid !== body.mid) {
    throw new AppError('TERMINAL_READER_UNKNOWN');
  }
  if (body.amount <= 0) throw new AppError('TERMINAL_INVALID_PARAMETERS');
  if (body.amount > TERMINAL_MAX_AMOUNT_KOBO) throw new AppError('TERMINAL_AMOUNT_OUT_OF_RANGE');
  const transactionType = String(TERMINAL_TRANSACTION_TYPE).padStart(2, '0');
  if (
    icc.amount !== body.amount ||
    icc.currencyCode !== TERMINAL_CURRENCY_CODE ||
    icc.transactionType !== transactionType ||
    icc.transactionDate !== emvDateOf(body.trans_datetime)
  ) {
    throw new AppError('TERMINAL_INVALID_PARAMETERS');
  }
  // The card declined offline (AAC) or wants no authorisation: nothing to send.
  if (!icc.asksOnline) throw new AppError('TERMINAL_DECLINED');
  return {
    icc,
    card: {
      brand: detectCardBrand(body.pan),
      first6: body.pan.slice(0, 6),
      last4: body.pan.slice(-4),
    },
  };
}

/** One chip purchase: checked, recorded, sent to the acquirer, and its answer booked. */
async function purchase(
  ctx: TTerminalContext,
  body: TChipPurchaseRequest,
  access: TPaymentAccess,
): Promise<TChipPurchaseResponse> {
  const { db, clock } = ctx;
  const acquirer = readerAcquirer(ctx);
  const reader = await acquirer.terminalFetchKeys(body.serial);
  const { card } = checkReaderData(body, reader);
  const payable = await loadPayable(db, body.paymentId, access, clock.now());
  if (body.amount !== payable.payment.amount) throw new AppError('TERMINAL_INVALID_PARAMETERS');
  const maskedPan = obfuscateCard(card);
  // Without sign-in, the purchase is the page's that sent it: it alone gets the token with which
  // it reads and follows the payment (payment-reads.ts).
  const owner = 'payerId' in access ? null : newChargeToken();
  return runAttempt<TChipPurchaseOutcome, TChipPurchaseResponse>(ctx, {
    open: {
      payable,
      fields: {
        method: 'chip_card',
        provider: acquirer.provider,
        payerId: 'payerId' in access ? access.payerId : null,
        ownerTokenHash: owner?.hash ?? null,
        cardBrand: card.brand,
        cardFirst6: card.first6,
        cardLast4: card.last4,
      },
      // The purchase's row, with its attempt; an RRN already used refuses the purchase.
      after: (tx, attemptId, written, now) => [
        tx.$with('purchase').as(
          insertWhere(
            tx,
            terminalPurchases,
            {
              id: randomId('tpu'),
              rrn: body.rrn,
              attemptId,
              paymentId: payable.payment.id,
              serial: body.serial,
              tid: body.tid,
              mid: body.mid,
              maskedPan,
              amount: body.amount,
              transDatetime: body.trans_datetime,
              createdAt: now,
              updatedAt: now,
            },
            written,
          ),
        ),
      ],
      conflicts: { terminal_purchases_rrn: 'TERMINAL_RRN_REUSED' },
    },
    call: (attempt) =>
      acquirer.terminalChipPurchase({
        reference: attempt.id,
        rrn: body.rrn,
        transDatetime: body.trans_datetime,
        serial: body.serial,
        tid: body.tid,
        mid: body.mid,
        amount: body.amount,
        pan: body.pan,
        track2: body.track2,
        expiry: body.expirydate,
        pinBlock: body.pin_block,
        iccData: body.icc_data,
      }),
    // No answer reads as a timeout; the reconciler asks the acquirer later.
    noAnswer: 'TERMINAL_TIMEOUT',
    answer: async (attempt, outcome) =>
      outcome.kind === 'declined'
        ? {
            kind: 'fail',
            failure: refusalOf(outcome.reason),
            reason: outcome.reason,
            note: () =>
              recordAcquirerAnswer(db, attempt, { ...outcome, authCode: null }, clock.now()),
          }
        : paidWith(
            () => settleChipPurchase(ctx, attempt, outcome),
            () => ({
              status: true,
              data: {
                responseCode: '00',
                approved: true,
                rrn: body.rrn,
                authCode: outcome.authCode,
                paymentId: payable.payment.id,
                amount: attempt.amount,
                maskedPan,
              },
              message: TERMINAL_APPROVED_MESSAGE,
              ...(owner ? { chargeToken: owner.token } : {}),
            }),
          ),
  });
}

/**
 * The fingerprint of a purchase for its rrn's replays: an HMAC under a server secret, so the
 * stored fingerprint says nothing of the card number inside (a bare hash of it could be
 * reversed by trying every number of the card's range).
 */
async function fingerprintOf(db: TTerminalContext['db'], body: TChipPurchaseRequest) {
  const key = await storedSecret(db, 'terminal-purchase-fingerprints');
  return createHmac('sha256', key).update(canonicalJson(body)).digest('base64url');
}

/**
 * POST /api/card-terminal/raven/chip-purchase, once per rrn: a replay of the same purchase gets
 * the first answer and books nothing more; the same rrn with another purchase is
 * TERMINAL_RRN_REUSED (409).
 */
export async function chipPurchaseOnce(
  ctx: TTerminalContext,
  body: TChipPurchaseRequest,
  access: TPaymentAccess,
): Promise<TStoredAnswer<TChipPurchaseResponse>> {
  try {
    return await runIdempotentCall(
      ctx.db,
      {
        scope: 'card-terminal.chip-purchase',
        key: body.rrn,
        request: { fingerprint: await fingerprintOf(ctx.db, body) },
      },
      async () => ({ status: 200, body: await purchase(ctx, body, access) }),
      { waitMs: BANK_CALL_RETRY_WAIT_MS },
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
      throw new AppError('TERMINAL_RRN_REUSED');
    }
    throw error;
  }
}
