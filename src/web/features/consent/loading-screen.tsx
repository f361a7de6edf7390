import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import { Spinner } from '../../ui/spinner';

/** spec §2 Loading. */
export function LoadingScreen() {
  return (
    <>
      {/* The page's heading while nothing else is known; the status alone is announced. */}
      <h1 id={SCREEN_TITLE_ID} className="visually-hidden">
        Consent Request
      </h1>
      <section className="card-body status-screen" role="status" aria-live="polite">
        <Spinner />
        <p>Loading consent...</p>
      </section>
    </>
  );
}
