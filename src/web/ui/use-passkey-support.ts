import { useEffect, useState } from 'react';
import type { TPasskeySupport } from './passkey-support';

const USABLE: TPasskeySupport = { usable: true, kind: { kind: 'browser' } };

/**
 * Whether passkeys work here (passkey-support.ts), asked once the page is up: the server, and the
 * page until it knows, offer passkeys as a browser of its own has them. The rules load apart from
 * the first screen; only a page where passkeys do not work changes.
 */
export function usePasskeySupport(): TPasskeySupport {
  const [support, setSupport] = useState(USABLE);
  useEffect(() => {
    let current = true;
    void import('./passkey-support')
      .then((module) => module.passkeySupport())
      .then((found) => {
        if (current && !found.usable) setSupport(found);
      })
      // Its code not come (a dropped connection): passkeys stay offered, as before the check.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return support;
}
