import { THREE_DS_TEXTS } from '../../../domain/in-app-browser';
import { useThreeDsOpening } from './three-ds-opening';

/**
 * While a 3-D Secure check is awaited (spec §2 'Awaiting 3D Secure Authentication'): where to
 * complete it, in the spec's words where a tab opens and in ours where it opens in this window,
 * and 'Reconnect', which opens it again the same way. Loaded with the wait, off the first screen.
 */
export function ThreeDsWaiting({ challengeUrl }: { challengeUrl: string }) {
  const { opening, noTab, open } = useThreeDsOpening();
  return (
    <div className="awaiting-3ds">
      <h2 className="section-title">Awaiting 3D Secure Authentication</h2>
      {noTab ? <p role="status">{THREE_DS_TEXTS.no_tab}</p> : null}
      <p>
        {opening === 'new_tab'
          ? THREE_DS_TEXTS.awaiting_new_tab
          : THREE_DS_TEXTS.awaiting_same_window}
      </p>
      <div className="actions">
        <a
          className="button primary"
          href={challengeUrl}
          {...(opening === 'new_tab' ? { target: '_blank', rel: 'noopener' } : {})}
          onClick={(event) => {
            event.preventDefault();
            open(challengeUrl);
          }}
        >
          Reconnect
        </a>
      </div>
    </div>
  );
}
