// @vitest-environment jsdom
// The React bindings under StrictMode, which runs every effect twice on mount: one modal, one
// frame, however often React asks.
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { createElement, StrictMode, useEffect } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { TOyaConsentEvent } from './oya-consent';
import { OyaConsentFrame, useOyaConsent, type TOyaConsentOptions } from './react';

const location = { consentId: 'cns_1', clientId: 'cli_1', baseUrl: 'https://pay.example.com' };

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(JSON.stringify({ success: true, allowed: true })))),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const strict = (element: React.ReactElement) => render(createElement(StrictMode, null, element));

function Checkout(props: TOyaConsentOptions & { openOnMount?: boolean }) {
  const consent = useOyaConsent(props);
  const { openOnMount } = props;
  useEffect(() => {
    // A merchant who opens it in an effect: StrictMode runs this twice.
    if (openOnMount) consent.open();
  }, [openOnMount, consent]);
  return createElement(
    'button',
    { type: 'button', onClick: consent.open },
    consent.isOpen ? 'Open' : 'Pay',
  );
}

it('useOyaConsent opens one modal however often open() is called, and tells isOpen', async () => {
  const view = strict(createElement(Checkout, location));
  const button = view.getByRole('button');
  expect(document.querySelector('iframe')).toBeNull();
  fireEvent.click(button);
  fireEvent.click(button);
  expect(document.querySelectorAll('[role="dialog"]')).toHaveLength(1);
  expect(button.textContent).toBe('Open');
  // The payer closes it: the hook hears it.
  act(() => document.querySelector<HTMLButtonElement>('button[aria-label="Close"]')?.click());
  expect(document.querySelector('[role="dialog"]')).toBeNull();
  expect(button.textContent).toBe('Pay');
});

it('useOyaConsent opened in an effect under StrictMode leaves one modal', () => {
  strict(createElement(Checkout, { ...location, openOnMount: true }));
  expect(document.querySelectorAll('[role="dialog"]')).toHaveLength(1);
});

it('useOyaConsent removes its open modal on unmount, without onClose', () => {
  const onClose = vi.fn();
  const view = strict(createElement(Checkout, { ...location, onClose }));
  fireEvent.click(view.getByRole('button'));
  view.unmount();
  expect(document.querySelector('[role="dialog"]')).toBeNull();
  expect(document.body.style.overflow).toBe('');
  expect(onClose).not.toHaveBeenCalled();
});

it('useOyaConsent calls the newest callbacks given, without opening again', () => {
  const first = vi.fn();
  const second = vi.fn();
  const view = strict(createElement(Checkout, { ...location, onClose: first }));
  fireEvent.click(view.getByRole('button'));
  view.rerender(
    createElement(StrictMode, null, createElement(Checkout, { ...location, onClose: second })),
  );
  expect(document.querySelectorAll('[role="dialog"]')).toHaveLength(1);
  act(() => document.querySelector<HTMLButtonElement>('button[aria-label="Close"]')?.click());
  expect(first).not.toHaveBeenCalled();
  expect(second).toHaveBeenCalledExactlyOnceWith({ type: 'closed', reason: 'dismissed' });
});

it('OyaConsentFrame shows one inline frame under StrictMode, and a new one for a new consent', async () => {
  const events: TOyaConsentEvent[] = [];
  const onEvent = (event: TOyaConsentEvent) => events.push(event);
  const view = strict(
    createElement(OyaConsentFrame, { ...location, className: 'checkout', onEvent }),
  );
  const frames = () => [...document.querySelectorAll('iframe')];
  expect(frames()).toHaveLength(1);
  expect(frames()[0]?.parentElement?.className).toBe('checkout');
  expect(document.querySelector('[role="dialog"]')).toBeNull();
  await vi.waitFor(() => expect(frames()[0]?.src).toContain('/r/cns_1?'));

  view.rerender(
    createElement(
      StrictMode,
      null,
      createElement(OyaConsentFrame, { ...location, consentId: 'cns_2', onEvent }),
    ),
  );
  expect(frames()).toHaveLength(1);
  await vi.waitFor(() => expect(frames()[0]?.src).toContain('/r/cns_2?'));
  view.unmount();
  expect(frames()).toHaveLength(0);
  expect(events).toEqual([]);
});
