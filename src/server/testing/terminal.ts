// Server tests of the card terminal: the sandbox's readers and chip cards, a read by the sandbox
// reader as the page would ask for it, and a chip purchase of a consent's payment.
import type { FastifyInstance } from 'fastify';
import { decodeTlv, encodeTlv, type TTlv } from '../../domain/emv/tlv';
import type { TChipReaderData } from '../../domain/schemas/card-terminal';
import { SANDBOX_CHIP_CARDS, SANDBOX_READERS, type TChipCardScenario } from '../sandbox/fixtures';

export function chipCard(scenario: TChipCardScenario) {
  const card = SANDBOX_CHIP_CARDS.find((c) => c.scenario === scenario);
  if (!card) throw new Error(`No sandbox chip card for ${scenario}`);
  return card;
}

export const sandboxReader = () => {
  const [reader] = SANDBOX_READERS;
  if (!reader) throw new Error('No sandbox reader');
  return reader;
};

let addressSeq = 0;
/** An address no other request of the run used, so per-address limits never meet. */
export const freshAddress = () => {
  addressSeq += 1;
  return `10.14.${addressSeq >> 8}.${addressSeq & 255}`;
};

/** POST /api/sandbox/terminal/read, as the page's sandbox transport calls it. */
export function sandboxRead(
  app: FastifyInstance,
  request: { cardNumber: string; amount: number; pin: string; serial?: string; faults?: string[] },
) {
  return app.inject({
    method: 'POST',
    url: '/api/sandbox/terminal/read',
    payload: { serial: sandboxReader().serial, ...request },
  });
}

/** What the sandbox reader hands over for the card of `scenario` (its PIN unless `pin`). */
export async function readChipCard(
  app: FastifyInstance,
  scenario: TChipCardScenario,
  amount: number,
  pin?: string,
): Promise<TChipReaderData> {
  const card = chipCard(scenario);
  const read = await sandboxRead(app, { cardNumber: card.number, amount, pin: pin ?? card.pin });
  if (read.statusCode !== 200) throw new Error(`sandbox read: ${read.body}`);
  return read.json<TChipReaderData>();
}

/** POST /api/card-terminal/raven/chip-purchase from an address of its own. */
export function chipPurchase(
  app: FastifyInstance,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/card-terminal/raven/chip-purchase',
    payload,
    headers,
    remoteAddress: freshAddress(),
  });
}

/** The chip data with one primitive tag's value replaced (the rest as the card signed it). */
export function withIccValue(iccData: string, tag: string, value: string): string {
  const change = (objects: TTlv[]): TTlv[] =>
    objects.map((object) =>
      object.constructed
        ? { ...object, children: change(object.children) }
        : object.tag === tag
          ? { ...object, value }
          : object,
    );
  return encodeTlv(change(decodeTlv(iccData)));
}

/** The chip data without one tag. */
export const withoutIccTag = (iccData: string, tag: string) =>
  encodeTlv(decodeTlv(iccData).filter((object) => object.tag !== tag));
