import { useDeferredValue, useEffect } from 'react';
import { useSearch } from 'wouter';
import { reloadSession } from '../../api/session';
import { useSession } from '../../features/auth/use-session';
import { ConsentPage } from '../../features/consent/consent-page';
import { consentScreens } from '../consent-screens';
import {
  closeParentOnEscape,
  listenToParent,
  postToParent,
  reportPageDialogs,
} from '../embed-bridge';

/** /r/{consentId}: the consent flow (features/consent), given the session and the embed bridge. */
export function ConsentRoute({ consentId }: { consentId: string }) {
  const search = useSearch();
  // The stored session is read after the drawn page (signed out) is taken over, and a signed-in
  // payer's screen may need code the drawn one did not: shown once drawn in the background, the
  // screen as it stands stays meanwhile. Drawn at once (the session store's change is urgent),
  // the part waiting for that code would put the Loading screen in place of the screen the payer
  // was tapping, and the tap would land on nothing.
  const signedIn = useDeferredValue(useSession().signedIn);
  // spec §6: the parent's authentication-updated message refreshes the session.
  useEffect(
    () =>
      listenToParent((message) => {
        if (message.type === 'authentication-updated') reloadSession();
      }),
    [],
  );
  // Embedded: Escape closes the merchant's modal, and a dialog of the page's own fills it.
  useEffect(() => closeParentOnEscape(), []);
  useEffect(() => reportPageDialogs(), []);
  return (
    <ConsentPage
      consentId={consentId}
      search={search}
      signedIn={signedIn}
      screens={consentScreens}
      postToParent={postToParent}
    />
  );
}
