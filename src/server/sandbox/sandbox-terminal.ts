import type {
  TSandboxTerminalReadRequest,
  TSandboxTerminalReadResponse,
} from '../../domain/schemas/sandbox';
import type { TAppContext } from '../context';
import { SANDBOX_CHIP_CARDS, SANDBOX_READERS } from './fixtures';
import { readSandboxCard } from './sandbox-reader';
import { AppError } from '../app-error';

/** The most a reader's amount field holds: 12 digits (EMV 9F02). */
const READER_MAX_AMOUNT = 999_999_999_999;

/**
 * POST /api/sandbox/terminal/read (docs/terminal.md "The sandbox reader"): a sandbox chip card
 * inserted into a registered sandbox reader, its PIN entered, and what the reader hands over —
 * or what a reader reports instead (spec §8): busy, a timed-out transaction, an amount it
 * cannot take, a card without a chip.
 */
export function readWithSandboxReader(
  ctx: Pick<TAppContext, 'clock'>,
  request: TSandboxTerminalReadRequest,
): TSandboxTerminalReadResponse {
  const faults = new Set(request.faults ?? []);
  if (faults.has('busy')) throw new AppError('TERMINAL_BUSY');
  const reader = SANDBOX_READERS.find((r) => r.serial === request.serial);
  if (!reader) throw new AppError('TERMINAL_READER_UNKNOWN');
  if (request.amount <= 0) throw new AppError('TERMINAL_INVALID_PARAMETERS');
  if (request.amount > READER_MAX_AMOUNT) throw new AppError('TERMINAL_AMOUNT_OUT_OF_RANGE');
  const card = SANDBOX_CHIP_CARDS.find((c) => c.number === request.cardNumber);
  if (!card) {
    throw new AppError('VALIDATION_FAILED', 'cardNumber: is not a sandbox chip card');
  }
  // A card without a chip can only be swiped, and the reader asks for the chip instead.
  if (card.scenario === 'magstripe_only') throw new AppError('TERMINAL_CHIP_REQUIRED');
  if (faults.has('timeout')) throw new AppError('TERMINAL_TIMEOUT');
  return readSandboxCard({
    reader,
    card,
    amount: request.amount,
    pin: request.pin,
    now: ctx.clock.now(),
  });
}
