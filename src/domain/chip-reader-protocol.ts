import { z } from 'zod/mini';
import {
  TERMINAL_BLUETOOTH_NAME_PREFIXES,
  TERMINAL_CURRENCY_CODE,
  TERMINAL_DO_TRADE_ARGS,
  TERMINAL_TRANSACTION_TYPE,
} from './constants';
import { ZChipReaderData } from './schemas/card-terminal';

/*
 * The Bluetooth reader protocol the page speaks (docs/terminal.md "Bluetooth reader protocol
 * (page)"): one GATT service with a write characteristic (page → reader) and a notify
 * characteristic (reader → page). Messages are UTF-8 JSON objects, each framed by a 2-byte
 * big-endian length, and the byte stream is cut into writes of at most 20 bytes (the smallest
 * BLE ATT payload), so a reader with the default MTU takes them. Pure: the page's transport and
 * the tests both use it.
 */

/** The reader's GATT service and its two characteristics: fixed 128-bit UUIDs of ours. */
export const READER_GATT = {
  service: '6f7a0001-5c2e-4b8a-9d1e-0c4a5e7b3f10',
  /** Page → reader commands: write (with or without response). */
  write: '6f7a0002-5c2e-4b8a-9d1e-0c4a5e7b3f10',
  /** Reader → page answers and events: notify. */
  notify: '6f7a0003-5c2e-4b8a-9d1e-0c4a5e7b3f10',
} as const;

/** The largest write the page makes: the default ATT MTU (23) less its 3-byte header. */
export const READER_CHUNK_BYTES = 20;
/** The largest message either side may frame: a length past it means a garbled stream. */
export const READER_MAX_MESSAGE_BYTES = 4096;

/** navigator.bluetooth.requestDevice filters: the spec's reader name prefixes (spec §9). */
export const readerRequestOptions = () => ({
  filters: TERMINAL_BLUETOOTH_NAME_PREFIXES.map((namePrefix) => ({ namePrefix })),
  optionalServices: [READER_GATT.service],
});

/** Page → reader commands. */
export type TReaderCommand =
  /** spec §9 doTrade(3, 20): mode 3 (insert, tap or swipe), 20 s for the card; amount in kobo. */
  | {
      cmd: 'doTrade';
      mode: number;
      timeout: number;
      amount: string;
      currencyCode: string;
      transactionType: string;
    }
  /** 'Reset Transaction': the reader abandons the trade and goes back to idle. */
  | { cmd: 'cancelTrade' }
  /** 'Reset Device': the reader restarts and reports the error DEVICE_RESET when it is back. */
  | { cmd: 'resetDevice' };

/** The doTrade command for an amount in kobo (spec §9: currency 0156, type 10, doTrade(3, 20)). */
export function doTradeCommand(amountKobo: number): TReaderCommand {
  const [mode, timeout] = TERMINAL_DO_TRADE_ARGS;
  return {
    cmd: 'doTrade',
    mode,
    timeout,
    amount: String(amountKobo),
    currencyCode: TERMINAL_CURRENCY_CODE,
    transactionType: String(TERMINAL_TRANSACTION_TYPE),
  };
}

/** What the reader hands over for the online request: the chip-purchase payload less tid, mid, amount. */
export const ZReaderOnlineRequest = z.omit(ZChipReaderData, { tid: true, mid: true, amount: true });
export type TReaderOnlineRequest = z.infer<typeof ZReaderOnlineRequest>;

/** Reader → page messages. */
export const ZReaderMessage = z.discriminatedUnion('evt', [
  /** A chip card was inserted and its chip answered. */
  z.object({ evt: z.literal('card_inserted') }),
  /** A card was swiped: this terminal takes chip cards only ('Please use chip card insertion'). */
  z.object({ evt: z.literal('magnetic_card') }),
  /** The reader asks the payer for their PIN on its keypad. */
  z.object({ evt: z.literal('pin_entry') }),
  /** The card asks to go online: what the acquirer needs. */
  z.object({ evt: z.literal('online_request'), data: ZReaderOnlineRequest }),
  /** The reader's error name (DEVICE_BUSY, TIMEOUT, DEVICE_RESET, …: chip-terminal.ts). */
  z.object({ evt: z.literal('error'), code: z.string().check(z.regex(/^[A-Z0-9_]{1,40}$/)) }),
]);
export type TReaderMessage = z.infer<typeof ZReaderMessage>;

/** One message as the bytes to write: a 2-byte big-endian length, then its UTF-8 JSON. */
export function encodeReaderFrame(message: TReaderCommand | TReaderMessage): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(message));
  if (body.length > READER_MAX_MESSAGE_BYTES) throw new RangeError('reader message too long');
  const frame = new Uint8Array(body.length + 2);
  frame[0] = body.length >> 8;
  frame[1] = body.length & 0xff;
  frame.set(body, 2);
  return frame;
}

/** The frame cut into the writes the page makes, each at most READER_CHUNK_BYTES. */
export function chunkReaderFrame(frame: Uint8Array): Uint8Array<ArrayBuffer>[] {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0; at < frame.length; at += READER_CHUNK_BYTES) {
    chunks.push(frame.slice(at, at + READER_CHUNK_BYTES));
  }
  return chunks;
}

export type TDecodedFrame =
  | { kind: 'message'; value: unknown }
  /** A length past the limit or a body that is not JSON: the stream is dropped. */
  | { kind: 'garbled' };

/**
 * Reassembles frames from notifications, whatever their cut: push each notification's bytes,
 * get back every frame it completed, parsed as JSON (not yet checked against a schema).
 */
export function createReaderFrameDecoder() {
  let buffer = new Uint8Array(0);
  return {
    push(bytes: Uint8Array): TDecodedFrame[] {
      const joined = new Uint8Array(buffer.length + bytes.length);
      joined.set(buffer);
      joined.set(bytes, buffer.length);
      buffer = joined;
      const out: TDecodedFrame[] = [];
      while (buffer.length >= 2) {
        const length = ((buffer[0] ?? 0) << 8) | (buffer[1] ?? 0);
        if (length > READER_MAX_MESSAGE_BYTES) {
          buffer = new Uint8Array(0);
          out.push({ kind: 'garbled' });
          break;
        }
        if (buffer.length < length + 2) break;
        const body = buffer.slice(2, length + 2);
        buffer = buffer.slice(length + 2);
        try {
          out.push({ kind: 'message', value: JSON.parse(new TextDecoder().decode(body)) });
        } catch {
          out.push({ kind: 'garbled' });
        }
      }
      return out;
    },
  };
}
