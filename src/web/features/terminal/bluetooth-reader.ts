import {
  READER_GATT,
  ZReaderMessage,
  chunkReaderFrame,
  createReaderFrameDecoder,
  doTradeCommand,
  encodeReaderFrame,
  readerRequestOptions,
  type TReaderCommand,
} from '../../../domain/chip-reader-protocol';
import { ReaderConnectError, readerEvents, type TReaderPort } from './reader-port';

/*
 * The Web Bluetooth transport (docs/terminal.md "Bluetooth reader protocol (page)"). The DOM
 * library of this project has no Web Bluetooth types, so the few members used are typed here.
 */
type TCharacteristic = EventTarget & {
  properties: { write: boolean; writeWithoutResponse: boolean; notify: boolean };
  value: DataView | null;
  startNotifications(): Promise<TCharacteristic>;
  writeValueWithResponse(value: BufferSource): Promise<void>;
  writeValueWithoutResponse(value: BufferSource): Promise<void>;
};
type TGattServer = {
  connected: boolean;
  connect(): Promise<TGattServer>;
  disconnect(): void;
  getPrimaryService(uuid: string): Promise<{
    getCharacteristic(uuid: string): Promise<TCharacteristic>;
  }>;
};
type TBluetoothDevice = EventTarget & { name?: string; gatt?: TGattServer };
type TBluetooth = {
  requestDevice(options: ReturnType<typeof readerRequestOptions>): Promise<TBluetoothDevice>;
};

/** The browser's Web Bluetooth, when it has one. */
export function webBluetooth(): TBluetooth | null {
  const bluetooth = (navigator as Navigator & { bluetooth?: TBluetooth }).bluetooth;
  return bluetooth ?? null;
}

export function bluetoothReader(bluetooth: TBluetooth): TReaderPort {
  const events = readerEvents();
  let device: TBluetoothDevice | null = null;
  let writer: TCharacteristic | null = null;

  const onDisconnected = () => {
    writer = null;
    events.emit({ type: 'disconnected' });
  };

  const send = async (command: TReaderCommand) => {
    if (!writer || !device?.gatt?.connected) throw new Error('Not connected to device');
    for (const chunk of chunkReaderFrame(encodeReaderFrame(command))) {
      if (writer.properties.write) await writer.writeValueWithResponse(chunk);
      else await writer.writeValueWithoutResponse(chunk);
    }
  };

  return {
    async connect() {
      try {
        device = await bluetooth.requestDevice(readerRequestOptions());
      } catch {
        // The chooser was cancelled, or no reader was found.
        throw new ReaderConnectError('discovery_failed');
      }
      const found = device;
      let server: TGattServer;
      try {
        if (!found.gatt) throw new Error('no GATT server');
        server = await found.gatt.connect();
      } catch {
        throw new ReaderConnectError('connect_failed');
      }
      // spec §5: both characteristics set up, or the reader cannot be used.
      try {
        const service = await server.getPrimaryService(READER_GATT.service);
        const write = await service.getCharacteristic(READER_GATT.write);
        const notify = await service.getCharacteristic(READER_GATT.notify);
        if (!(write.properties.write || write.properties.writeWithoutResponse)) throw new Error();
        if (!notify.properties.notify) throw new Error();
        const decoder = createReaderFrameDecoder();
        notify.addEventListener('characteristicvaluechanged', () => {
          const view = notify.value;
          if (!view) return;
          const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
          for (const frame of decoder.push(bytes)) {
            const message = frame.kind === 'message' ? ZReaderMessage.safeParse(frame.value) : null;
            if (!message?.success) {
              events.emit({ type: 'error', code: 'INPUT_INVALID_FORMAT' });
              continue;
            }
            const m = message.data;
            if (m.evt === 'online_request') events.emit({ type: 'online_request', data: m.data });
            else if (m.evt === 'error') events.emit({ type: 'error', code: m.code });
            else if (m.evt === 'magnetic_card') events.emit({ type: 'magnetic_card' });
            else events.emit({ type: m.evt });
          }
        });
        await notify.startNotifications();
        writer = write;
      } catch {
        server.disconnect();
        throw new ReaderConnectError('characteristics_missing');
      }
      found.addEventListener('gattserverdisconnected', onDisconnected);
    },
    startTrade: (amountKobo) => send(doTradeCommand(amountKobo)),
    cancelTrade: () => send({ cmd: 'cancelTrade' }),
    resetDevice: () => send({ cmd: 'resetDevice' }),
    disconnect() {
      device?.removeEventListener('gattserverdisconnected', onDisconnected);
      device?.gatt?.disconnect();
      writer = null;
      device = null;
    },
    subscribe: events.subscribe,
    Controls: null,
  };
}
