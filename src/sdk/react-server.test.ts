// The React bindings rendered on a server (Node, no window, no document): they render, and
// open nothing.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';

it('renders on a server without a window: the frame an empty div, the hook nothing open', async () => {
  expect(typeof window).toBe('undefined');
  const { OyaConsentFrame, useOyaConsent } = await import('./react');
  const location = { consentId: 'cns_1', clientId: 'cli_1', baseUrl: 'https://pay.example.com' };
  expect(renderToString(createElement(OyaConsentFrame, { ...location, className: 'pay' }))).toBe(
    '<div class="pay"></div>',
  );
  function Checkout() {
    const consent = useOyaConsent(location);
    return createElement('button', { type: 'button' }, consent.isOpen ? 'Open' : 'Pay');
  }
  expect(renderToString(createElement(Checkout))).toBe('<button type="button">Pay</button>');
});
