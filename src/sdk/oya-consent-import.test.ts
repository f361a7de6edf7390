// A framework imports the embed script while it renders on a server, where there is no window: the
// import must not touch it. This file runs in Node, without a DOM.
import { expect, it } from 'vitest';

it('imports without a window or a document, and opens nothing until open() is called', async () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  const sdk = await import('./oya-consent');
  expect(sdk.open).toBeTypeOf('function');
  expect(sdk.consentPageUrl({ consentUrl: 'https://pay.example.com/r/c?clientId=x' }).href).toBe(
    'https://pay.example.com/r/c?clientId=x&embed=true',
  );
});
