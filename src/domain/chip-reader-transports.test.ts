import { describe, expect, it } from 'vitest';
import { chipReaderTransports } from './chip-reader-transports';

describe('chipReaderTransports', () => {
  it.each([
    [{ sandbox: false, webBluetooth: false }, []],
    [{ sandbox: true, webBluetooth: false }, ['sandbox']],
    [{ sandbox: false, webBluetooth: true }, ['bluetooth']],
    [{ sandbox: true, webBluetooth: true }, ['bluetooth', 'sandbox']],
  ])('%j offers %j', (env, transports) => {
    expect(chipReaderTransports(env)).toEqual(transports);
  });
});
