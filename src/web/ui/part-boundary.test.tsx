// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage, serverReachable } from '../api/page-reload';
import { FailureBoundary, PartBoundary } from './part-boundary';
import { preloadable } from './preloadable';

vi.mock('../api/page-reload', () => ({ reloadPage: vi.fn(), serverReachable: vi.fn() }));

let logged: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  // React reports what a boundary caught, and the boundary reports it too.
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  logged.mockRestore();
  vi.mocked(reloadPage).mockReset();
  vi.mocked(serverReachable).mockReset();
});

/** A part whose code does not come. */
function partNotComing() {
  const load = vi.fn(() =>
    Promise.reject<() => null>(new TypeError('Failed to fetch dynamically imported module')),
  );
  return { Part: preloadable(load), load };
}

const message = 'Something went wrong. Please try again.';

describe('a part of the page whose code did not come', () => {
  it('says so in its place and keeps the rest of the page', async () => {
    const { Part } = partNotComing();
    render(
      <>
        <h1>The rest of the page</h1>
        <PartBoundary loading={<p>Loading...</p>}>
          <Part />
        </PartBoundary>
      </>,
    );
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(screen.getByRole('heading', { name: 'The rest of the page' })).toBeTruthy();
    expect(logged).toHaveBeenCalledWith(
      'A part of the page failed',
      expect.objectContaining({ name: 'PartLoadError' }),
      expect.any(String),
    );
  });

  it("opens the page again on 'Try Again' once the server answers, and not while it does not", async () => {
    const { Part } = partNotComing();
    render(
      <PartBoundary>
        <Part />
      </PartBoundary>,
    );
    const tryAgain = await screen.findByRole('button', { name: 'Try Again' });

    vi.mocked(serverReachable).mockResolvedValueOnce(false);
    fireEvent.click(tryAgain);
    await waitFor(() => expect(serverReachable).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(tryAgain.getAttribute('aria-busy')).toBe('false'));
    expect(reloadPage).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain(message);

    vi.mocked(serverReachable).mockResolvedValueOnce(true);
    fireEvent.click(tryAgain);
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
  });

  it('gives its retry to what the part shows instead, when it says', async () => {
    const { Part } = partNotComing();
    render(
      <PartBoundary failed={(retry) => <button onClick={() => void retry()}>Its own way</button>}>
        <Part />
      </PartBoundary>,
    );
    vi.mocked(serverReachable).mockResolvedValueOnce(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Its own way' }));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
  });
});

describe('a part that throws while drawn', () => {
  it("says so in its place, and 'Try Again' draws it again, without opening the page again", async () => {
    let broken = true;
    const Sometimes = () => {
      if (broken) throw new Error('drawn wrong');
      return <p>Drawn</p>;
    };
    render(
      <FailureBoundary>
        <Sometimes />
      </FailureBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain(message);
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Drawn')).toBeTruthy();
    expect(reloadPage).not.toHaveBeenCalled();
    expect(serverReachable).not.toHaveBeenCalled();
  });
});
