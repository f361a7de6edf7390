import type { TChipReaderTransport } from '../../../domain/chip-reader-transports';
import type { TSandboxFixturesResponse } from '../../../domain/schemas/sandbox';
import { bluetoothReader, webBluetooth } from './bluetooth-reader';
import type { TReaderPort } from './reader-port';
import { sandboxReader } from './sandbox-reader';

/**
 * The reader driver (the spec's "QPOS SDK"): its own chunk, loaded when the terminal modal opens,
 * with up to TERMINAL_SDK_MAX_LOAD_RETRIES retries (load-reader-driver.ts).
 */
export function createReaderPort(
  transport: TChipReaderTransport,
  fixtures: TSandboxFixturesResponse | null,
): TReaderPort | null {
  if (transport === 'sandbox') return fixtures ? sandboxReader(fixtures) : null;
  const bluetooth = webBluetooth();
  return bluetooth ? bluetoothReader(bluetooth) : null;
}
