import { Spinner } from '../../ui/spinner';

/** spec §2 Loading. */
export function LoadingScreen() {
  return (
    <section className="card-body status-screen" role="status" aria-live="polite">
      <Spinner />
      <p>Loading consent...</p>
    </section>
  );
}
