import { useSearch } from 'wouter';
import { useSession } from '../../features/auth/use-session';
import { ConsentPage } from '../../features/consent/consent-page';
import { consentScreens } from '../consent-screens';
import { postToParent } from '../embed-bridge';

/** /r/{consentId}: the consent flow (features/consent), given the session and the embed bridge. */
export function ConsentRoute({ consentId }: { consentId: string }) {
  const search = useSearch();
  const { signedIn } = useSession();
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
