import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadPage, serverReachable } from './page-reload';
import { ApiError } from './api-error';
import { apiFetch } from './http';

vi.mock('./page-reload', () => ({ reloadPage: vi.fn(), serverReachable: vi.fn() }));
// The calling code does not come: a dropped connection while its chunk was fetched.
vi.mock('./call', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

afterEach(() => vi.mocked(serverReachable).mockReset());

const readConsent = () =>
  apiFetch('/api/consent/cns_x?clientId=cli_x', { answer: 'ZConsentReadResponse' });

describe('a call whose code did not come', () => {
  it('fails as one that did not reach the server; a later try opens the page again once the server answers', async () => {
    const failure = await readConsent().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 0,
      code: 'API_REQUEST_FAILED',
      message: 'API request failed',
    });
    expect(serverReachable).not.toHaveBeenCalled();

    vi.mocked(serverReachable).mockResolvedValueOnce(false);
    await expect(readConsent()).rejects.toMatchObject({ code: 'API_REQUEST_FAILED' });
    expect(reloadPage).not.toHaveBeenCalled();

    vi.mocked(serverReachable).mockResolvedValueOnce(true);
    await expect(readConsent()).rejects.toMatchObject({ code: 'API_REQUEST_FAILED' });
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});
