// React bindings of the embed script, published as `@oya-money/consent-sdk/react` (react is a
// peer dependency). Neither touches window nor document while importing or rendering, so a
// server may render them; the embed opens only in an effect or on the merchant's call, and goes
// with the component, so StrictMode's second run of effects never leaves two.
import { createElement, useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import {
  open,
  type TConsentLocation,
  type TOyaConsentCallbacks,
  type TOyaConsentEvent,
  type TOyaConsentHandle,
} from './oya-consent';

/** Where the consent is, and what the merchant hears of it. */
export type TOyaConsentOptions = TConsentLocation & TOyaConsentCallbacks;

/**
 * The options with callbacks that call the newest ones given: a render with new callbacks
 * reaches an embed already open, without opening it again.
 */
function latestCallbacks(
  latest: { current: TOyaConsentOptions },
  onEvent?: (event: TOyaConsentEvent) => void,
): TOyaConsentCallbacks {
  return {
    onSuccess: (event) => latest.current.onSuccess?.(event),
    onFailure: (event) => latest.current.onFailure?.(event),
    onDecline: (event) => latest.current.onDecline?.(event),
    onClose: (event) => latest.current.onClose?.(event),
    onEvent: (event) => {
      onEvent?.(event);
      latest.current.onEvent?.(event);
    },
  };
}

export type TOyaConsentModal = {
  /** Opens the consent in a modal; does nothing while this hook's modal is open. */
  open: () => void;
  /** Closes the modal, as the payer's close button does (onClose hears `closed`). */
  close: () => void;
  readonly isOpen: boolean;
};

/**
 * The consent in a modal, opened by the merchant's `open()` (a click): nothing opens while
 * rendering, and one hook never has two modals open. Unmounting removes an open modal.
 */
export function useOyaConsent(options: TOyaConsentOptions): TOyaConsentModal {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const handle = useRef<TOyaConsentHandle | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const openModal = useCallback(() => {
    if (handle.current?.isOpen) return;
    handle.current = open({
      ...latest.current,
      ...latestCallbacks(latest, (event) => {
        if (event.type === 'closed') setIsOpen(false);
      }),
    });
    setIsOpen(handle.current.isOpen);
  }, []);
  const close = useCallback(() => handle.current?.close(), []);
  useEffect(
    () => () => {
      handle.current?.destroy();
      handle.current = null;
    },
    [],
  );
  return { open: openModal, close, isOpen };
}

/** Where the consent is, as one string: the embed opens again when it changes. */
const locationKey = (options: TConsentLocation) =>
  'consentUrl' in options
    ? options.consentUrl
    : JSON.stringify([options.baseUrl, options.consentId, options.clientId]);

export type TOyaConsentFrameProps = TOyaConsentOptions & { className?: string };

/**
 * The consent inline, in a div of its own, from mount to unmount. Rendered on a server it is an
 * empty div; the page loads once the browser runs its effect.
 */
export function OyaConsentFrame(props: TOyaConsentFrameProps): ReactElement {
  const container = useRef<HTMLDivElement>(null);
  const latest = useRef<TOyaConsentOptions>(props);
  useEffect(() => {
    latest.current = props;
  });
  const location = locationKey(props);
  useEffect(() => {
    const node = container.current;
    if (!node) return undefined;
    const { className: _className, ...options } = latest.current as TOyaConsentFrameProps;
    const embed = open({ ...options, ...latestCallbacks(latest), container: node });
    return () => embed.destroy();
  }, [location]);
  return createElement('div', { ref: container, className: props.className });
}
