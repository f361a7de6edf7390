import { useId, useState } from 'react';
import {
  NO_PASSKEY_TEXTS,
  noPasskeyExplanation,
  openInBrowserTip,
  systemBrowserHref,
  type TBrowserKind,
} from '../../domain/in-app-browser';
import { Button } from './button';
import './no-passkey-notice.css';

type TNoPasskeyNoticeProps = {
  kind: TBrowserKind;
  /** The consent has an immediate payment the payer may pay here without a passkey. */
  payMeanwhile?: boolean;
};

/** The page's own address, without its fragment (page state that should not travel). */
const pageAddress = () => {
  const url = new URL(window.location.href);
  url.hash = '';
  return url.href;
};

/**
 * Where passkeys do not work (an app's browser or webview): says so in a payer's words,
 * and offers 'Open in your browser': the page handed to Android's browser where the platform
 * allows it, else its address copied to paste there; meanwhile, a payment by transfer or card.
 */
export function NoPasskeyNotice({ kind, payMeanwhile = false }: TNoPasskeyNoticeProps) {
  const id = useId();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const address = pageAddress();
  const intent = systemBrowserHref(address, kind);
  const tip = openInBrowserTip(kind);
  const copyAddress = () => {
    // An app's webview may have no clipboard at all: the address is then shown to copy by hand.
    if (!('clipboard' in navigator)) return setCopy('failed');
    void navigator.clipboard.writeText(address).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };
  return (
    <section className="no-passkey" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {NO_PASSKEY_TEXTS.title}
      </h2>
      <p>{noPasskeyExplanation(kind)}</p>
      {payMeanwhile ? <p>{NO_PASSKEY_TEXTS.payMeanwhile}</p> : null}
      <div className="actions">
        {intent ? (
          <a className="button secondary" href={intent}>
            {NO_PASSKEY_TEXTS.openInBrowser}
          </a>
        ) : (
          <Button variant="secondary" onClick={copyAddress}>
            {NO_PASSKEY_TEXTS.openInBrowser}
          </Button>
        )}
      </div>
      <div role="status">
        {copy === 'copied' ? <p>{NO_PASSKEY_TEXTS.copied}</p> : null}
        {copy === 'failed' ? (
          <>
            <label htmlFor={`${id}-address`}>{NO_PASSKEY_TEXTS.copyFailed}</label>
            <input
              id={`${id}-address`}
              className="text-input"
              readOnly
              value={address}
              onFocus={(event) => event.target.select()}
            />
          </>
        ) : null}
      </div>
      {tip ? <p className="muted">{tip}</p> : null}
    </section>
  );
}
