// The sandbox card reader (docs/terminal.md "The sandbox reader"): what it hands the page for a
// chip card — track 2, the PIN block under the sandbox PIN key, chip data whose ARQC the sandbox
// issuer verifies — and the faults a reader reports instead (spec §8); only in sandbox mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIccData, REQUIRED_ICC_TAGS } from '../../../domain/emv/icc-data';
import { parsePinBlock } from '../../../domain/emv/pin-block';
import { parseTrack2 } from '../../../domain/emv/track2';
import { ZSandboxTerminalReadResponse } from '../../../domain/schemas/sandbox';
import { decryptPinBlock, verifySandboxArqc } from '../sandbox-emv';
import { testClock } from '../../testing/test-app';
import { startPluginApp } from '../../testing/plugin-app';
import { chipCard, sandboxRead, sandboxReader } from '../../testing/terminal';
import { sandboxTerminalRoutes } from './sandbox-terminal';

const clock = testClock('2027-03-15T09:30:00.250Z');
let ctx: Awaited<ReturnType<typeof startPluginApp>>;
beforeAll(async () => {
  ctx = await startPluginApp(sandboxTerminalRoutes, { clock });
});
afterAll(() => ctx.close());

const errorOf = (code: string, message: string) => ({ success: false, error: { code, message } });

describe('POST /api/sandbox/terminal/read', () => {
  it("hands over what a reader reads from a chip card: the card's track 2, PIN block and signed chip data", async () => {
    const card = chipCard('chip_approved');
    const reader = sandboxReader();
    const response = await sandboxRead(ctx.app, {
      cardNumber: card.number,
      amount: 250_000,
      pin: '4321',
    });
    expect(response.statusCode).toBe(200);
    const read = ZSandboxTerminalReadResponse.parse(response.json());
    expect(read).toMatchObject({
      pan: card.number,
      expirydate: '3011',
      amount: 250_000,
      serial: reader.serial,
      tid: reader.tid,
      mid: reader.mid,
      trans_datetime: '2027-03-15T09:30:00Z',
    });
    expect(read.rrn).toMatch(/^\d{12}$/);
    expect(parseTrack2(read.track2)).toMatchObject({
      pan: card.number,
      expiry: '3011',
      serviceCode: card.serviceCode,
    });
    // The PIN typed on the reader, not the card's: the issuer decides whether it is right.
    expect(parsePinBlock(decryptPinBlock(read.pin_block), card.number)).toBe('4321');
    expect(read.pin_block).not.toContain('4321');
    const icc = readIccData(read.icc_data);
    expect([...icc.values.keys()].sort()).toEqual(Object.keys(REQUIRED_ICC_TAGS).sort());
    expect(icc).toMatchObject({
      amount: 250_000,
      currencyCode: '0156',
      transactionType: '10',
      transactionDate: '270315',
      asksOnline: true,
    });
    expect(verifySandboxArqc(card.number, icc.values)).toBe(true);
  });

  it('draws a new rrn and unpredictable number for every read', async () => {
    const card = chipCard('chip_approved');
    const reads = await Promise.all(
      [1, 2, 3].map(() =>
        sandboxRead(ctx.app, { cardNumber: card.number, amount: 100, pin: '1234' }),
      ),
    );
    const rrns = reads.map((r) => r.json<{ rrn: string }>().rrn);
    expect(new Set(rrns).size).toBe(3);
  });

  it.each([
    [{ faults: ['busy'] }, 409, 'TERMINAL_BUSY', 'Device is busy, please wait'],
    [{ faults: ['timeout'] }, 504, 'TERMINAL_TIMEOUT', 'Transaction timed out'],
    [
      { cardNumber: chipCard('magstripe_only').number },
      400,
      'TERMINAL_CHIP_REQUIRED',
      'Please use chip card insertion',
    ],
    [
      { amount: 0 },
      400,
      'TERMINAL_INVALID_PARAMETERS',
      'Invalid transaction parameters. Please try again with a different amount or reset the device.',
    ],
    [
      { amount: 1_000_000_000_000 },
      400,
      'TERMINAL_AMOUNT_OUT_OF_RANGE',
      'Transaction amount is out of range. Please use a smaller amount.',
    ],
    [
      { serial: 'QP5UNKNOWN01' },
      404,
      'TERMINAL_READER_UNKNOWN',
      'This card reader is not registered. Check its serial number or use another reader.',
    ],
    [
      { cardNumber: '4084080000000003' },
      400,
      'VALIDATION_FAILED',
      'cardNumber: is not a sandbox chip card',
    ],
  ])('%j: %i %s', async (change, status, code, message) => {
    const response = await sandboxRead(ctx.app, {
      cardNumber: chipCard('chip_approved').number,
      amount: 250_000,
      pin: '1234',
      ...change,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(errorOf(code, message));
  });

  it('does not exist without the sandbox', async () => {
    const real = await startPluginApp(sandboxTerminalRoutes, { sandbox: null });
    try {
      const response = await sandboxRead(real.app, {
        cardNumber: chipCard('chip_approved').number,
        amount: 100,
        pin: '1234',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    } finally {
      await real.close();
    }
  });
});
