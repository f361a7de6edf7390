import { Component, Suspense, useState, type ErrorInfo, type ReactNode } from 'react';
import { PART_FAILED_MESSAGE } from '../../domain/page-errors';
import { Button } from './button';
import { reloadPage, serverReachable } from '../api/page-reload';
import { PartLoadError } from './preloadable';

type TFailureProps = {
  children: ReactNode;
  /** What the part shows when it failed; by default the message with 'Try Again'. */
  failed?: (retry: () => Promise<void>) => ReactNode;
};

/**
 * A part of the page that may fail to load its code (a dropped connection) or to draw: in its
 * place, 'Something went wrong. Please try again.' with 'Try Again', the rest of the page left as
 * it was. 'Try Again' draws a part that threw again; for code that did not come it opens the page
 * again once the server answers (the browser keeps the failed code until then; preloadable.ts).
 * What is paid or granted is the server's, so the new page shows where the payer stands.
 */
export class FailureBoundary extends Component<TFailureProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The console is where a developer embedding the page looks; nothing of the payer's is in it.
    console.error('A part of the page failed', error, info.componentStack);
  }

  private readonly retry = async (): Promise<void> => {
    if (!(this.state.error instanceof PartLoadError)) return this.setState({ error: null });
    // Still offline: the page stays, with its message, rather than the browser's offline page.
    if (await serverReachable()) reloadPage();
  };

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return this.props.failed ? this.props.failed(this.retry) : <PartFailed onRetry={this.retry} />;
  }
}

/** A part whose code loads when first shown: `loading` meanwhile, FailureBoundary's if it fails. */
export function PartBoundary({
  loading,
  failed,
  children,
}: TFailureProps & { loading?: ReactNode }) {
  return (
    <FailureBoundary failed={failed}>
      <Suspense fallback={loading}>{children}</Suspense>
    </FailureBoundary>
  );
}

/** What a FailureBoundary shows by default. */
export function PartFailed({ onRetry }: { onRetry(): Promise<void> }) {
  const retrying = useRetry(onRetry);
  return (
    <div role="alert" className="failure">
      <p>{PART_FAILED_MESSAGE}</p>
      <TryAgainButton {...retrying} />
    </div>
  );
}

/** 'Try Again' of a failure, busy while it tries. */
export function TryAgainButton({ busy, onClick }: { busy: boolean; onClick(): void }) {
  return (
    <Button onClick={onClick} disabled={busy} aria-busy={busy}>
      Try Again
    </Button>
  );
}

/** A retry that may take a moment: busy until it ends. */
export function useRetry(retry: () => Promise<void>): { busy: boolean; onClick(): void } {
  const [busy, setBusy] = useState(false);
  return {
    busy,
    onClick: () => {
      setBusy(true);
      void retry().finally(() => setBusy(false));
    },
  };
}
