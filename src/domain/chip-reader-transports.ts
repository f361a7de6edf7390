// Apart from the terminal's state machine (chip-terminal.ts): the Immediate Payment step decides
// with this whether to offer 'Chip Card Terminal' at first paint, and the terminal's own code
// loads only once the payer opens it.

/** How the page reaches a reader: a Bluetooth reader, or the sandbox's twin of one. */
export type TChipReaderTransport = 'bluetooth' | 'sandbox';

/**
 * The readers the page can offer (ours, docs/terminal.md): a Bluetooth reader where the browser
 * has Web Bluetooth, the sandbox reader while the sandbox network is on. 'Chip Card Terminal' is
 * offered on the Immediate Payment step (spec §2) only when at least one is there: without
 * either, the payer could not get past 'Connect Card Reader'.
 */
export function chipReaderTransports(env: {
  sandbox: boolean;
  webBluetooth: boolean;
}): TChipReaderTransport[] {
  const transports: TChipReaderTransport[] = [];
  if (env.webBluetooth) transports.push('bluetooth');
  if (env.sandbox) transports.push('sandbox');
  return transports;
}
