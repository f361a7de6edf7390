import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  READER_CHUNK_BYTES,
  READER_GATT,
  ZReaderMessage,
  chunkReaderFrame,
  createReaderFrameDecoder,
  doTradeCommand,
  encodeReaderFrame,
  readerRequestOptions,
} from './chip-reader-protocol';

const ONLINE = {
  evt: 'online_request' as const,
  data: {
    track2: '5399830000001006D301122100000000',
    pin_block: '0123456789ABCDEF',
    icc_data: '9F260800112233445566778F',
    pan: '5399830000001006',
    expirydate: '3011',
    rrn: '402193775120',
    trans_datetime: '2027-03-15T09:30:00Z',
    serial: 'QP5SBX000001',
  },
};

describe('the Bluetooth reader protocol', () => {
  it('asks for readers by the spec §9 name prefixes and may open the reader service', () => {
    expect(readerRequestOptions()).toEqual({
      filters: ['QP', 'MPOS', 'QPOS', 'VEL', 'MIPS', 'watu', 'POINT'].map((namePrefix) => ({
        namePrefix,
      })),
      optionalServices: [READER_GATT.service],
    });
  });

  it('trades with doTrade(3, 20), currency 0156 and type 10 (spec §9)', () => {
    expect(doTradeCommand(250_000)).toEqual({
      cmd: 'doTrade',
      mode: 3,
      timeout: 20,
      amount: '250000',
      currencyCode: '0156',
      transactionType: '10',
    });
  });

  it('frames a message with its 2-byte big-endian length', () => {
    const frame = encodeReaderFrame({ cmd: 'resetDevice' });
    const body = '{"cmd":"resetDevice"}';
    expect([...frame.slice(0, 2)]).toEqual([0, body.length]);
    expect(new TextDecoder().decode(frame.slice(2))).toBe(body);
  });

  it('cuts a frame into writes of at most 20 bytes, in order', () => {
    const frame = encodeReaderFrame(doTradeCommand(1));
    const chunks = chunkReaderFrame(frame);
    expect(chunks.every((chunk) => chunk.length <= READER_CHUNK_BYTES)).toBe(true);
    expect(chunks.length).toBe(Math.ceil(frame.length / READER_CHUNK_BYTES));
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(frame));
  });

  it('reassembles frames however the notifications cut them', () => {
    const messages = [{ evt: 'card_inserted' }, { evt: 'pin_entry' }, ONLINE];
    const stream = Buffer.concat(messages.map((m) => encodeReaderFrame(ZReaderMessage.parse(m))));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 60 }), (cuts) => {
        const decoder = createReaderFrameDecoder();
        const out: unknown[] = [];
        let at = 0;
        for (const cut of cuts) {
          if (at >= stream.length) break;
          out.push(...decoder.push(stream.subarray(at, at + cut)));
          at += cut;
        }
        out.push(...decoder.push(stream.subarray(at)));
        expect(out).toEqual(messages.map((value) => ({ kind: 'message', value })));
      }),
    );
  });

  it('drops a stream whose length is past the limit or whose body is not JSON', () => {
    expect(createReaderFrameDecoder().push(new Uint8Array([0xff, 0xff, 1]))).toEqual([
      { kind: 'garbled' },
    ]);
    expect(createReaderFrameDecoder().push(new Uint8Array([0, 2, 0x7b, 0x7b]))).toEqual([
      { kind: 'garbled' },
    ]);
  });

  it('reads the online request, and refuses one missing a field', () => {
    expect(ZReaderMessage.parse(ONLINE)).toEqual(ONLINE);
    const { pin_block: _, ...withoutPinBlock } = ONLINE.data;
    expect(ZReaderMessage.safeParse({ ...ONLINE, data: withoutPinBlock }).success).toBe(false);
    expect(ZReaderMessage.safeParse({ evt: 'error', code: 'DEVICE_BUSY' }).success).toBe(true);
    expect(ZReaderMessage.safeParse({ evt: 'error', code: 'lower case' }).success).toBe(false);
  });
});
