// @vitest-environment jsdom
import { ALL_CAPABILITIES_ON } from '../../domain/capabilities';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { ApiError, isApiError } from './api-error';
import { call } from './call';
import { apiFetch } from './http';
import { getSession, onSessionEnded, saveSession, setIdentifiedTo, STORAGE_KEYS } from './session';

const user = { userId: 'usr_1', fullName: 'Ada Obi', email: null, phoneNumber: '+2348031234567' };
const ok = z.object({ success: z.literal(true) });

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const sentHeaders = (fetchMock: ReturnType<typeof answer>) =>
  (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<
    string,
    string
  >;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/r/cns_1?clientId=cli_1');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('calls and the payer session (spec §6, §7, §8)', () => {
  it('sends the bearer token, and x-identify-to on every call but auth/me', async () => {
    saveSession({ token: 'tok_1', user });
    setIdentifiedTo('mer_1');
    const fetchMock = answer(200, { success: true });
    await call('/api/accounts/user', { schema: ok });
    expect(sentHeaders(fetchMock)).toMatchObject({
      Authorization: 'Bearer tok_1',
      'x-identify-to': 'mer_1',
    });
    const meFetch = answer(200, { success: true });
    await call('/api/auth/me', { schema: ok });
    expect(sentHeaders(meFetch)).not.toHaveProperty('x-identify-to');
    expect(sentHeaders(meFetch).Authorization).toBe('Bearer tok_1');
  });

  it('on 401 TOKEN_EXPIRED clears token, user and identified-to, redirects to / and raises the spec message', async () => {
    saveSession({ token: 'tok_old', user, attestUserData: { userId: 'usr_1' } });
    setIdentifiedTo('mer_1');
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      pathname: '/r/cns_1',
      search: '?clientId=cli_1',
      assign,
    });
    answer(401, { success: false, error: { code: 'TOKEN_EXPIRED', message: 'whatever' } });
    const failure = call('/api/auth/me', { schema: ok });
    await expect(failure).rejects.toEqual(
      new ApiError(401, 'TOKEN_EXPIRED', 'Token expired - redirecting to login'),
    );
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.identifiedTo)).toBeNull();
    // Not named by the spec for this path: the attestation data stays.
    expect(localStorage.getItem(STORAGE_KEYS.attestationUserData)).not.toBeNull();
    expect(assign).toHaveBeenCalledWith(
      `/?returnTo=${encodeURIComponent('/r/cns_1?clientId=cli_1')}`,
    );
    expect(getSession().notice).toBe('Token expired - redirecting to login');
  });

  it('clears the stored session on a 401 from the accounts fetch only', async () => {
    saveSession({ token: 'tok_1', user });
    answer(401, {
      success: false,
      error: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' },
    });
    await expect(call('/api/consent/cns_1', { schema: ok })).rejects.toBeInstanceOf(ApiError);
    expect(getSession().token).toBe('tok_1');
    answer(401, {
      success: false,
      error: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' },
    });
    await expect(call('/api/accounts/user?includeBvn=true', { schema: ok })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(getSession()).toMatchObject({ token: null, user: null });
  });

  it('tells a listening page that the session ended on a 401 naming no live session only', async () => {
    saveSession({ token: 'tok_1', user });
    const ended = vi.fn();
    const stop = onSessionEnded(ended);
    answer(401, {
      success: false,
      error: { code: 'PASSKEY_NOT_RECOGNISED', message: 'not here' },
    });
    await expect(call('/api/auth/step-up', { schema: ok })).rejects.toBeInstanceOf(ApiError);
    expect(ended).not.toHaveBeenCalled();
    answer(401, {
      success: false,
      error: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' },
    });
    await expect(call('/api/users/data-requests', { schema: ok })).rejects.toBeInstanceOf(ApiError);
    expect(ended).toHaveBeenCalledTimes(1);
    // The session is the listener's to clear: spec §6 clears it on the accounts fetch alone.
    expect(getSession().token).toBe('tok_1');
    stop();
  });

  it('uses an explicit token over the stored one (sign-up finishing its passkey)', async () => {
    saveSession({ token: 'tok_stored', user });
    const fetchMock = answer(200, { success: true });
    await call('/api/auth/passkeys/registration-options', {
      method: 'POST',
      schema: ok,
      token: 'tok_new',
    });
    expect(sentHeaders(fetchMock).Authorization).toBe('Bearer tok_new');
  });
});

describe('apiFetch failures: always a catalogue code (spec §8)', () => {
  it('keeps the code and message of a catalogue failure', async () => {
    answer(404, {
      success: false,
      error: { code: 'CONSENT_NOT_FOUND', message: 'Consent not found or has expired' },
    });
    await expect(call('/api/consent/cns_1?clientId=cli_1', { schema: ok })).rejects.toEqual(
      new ApiError(404, 'CONSENT_NOT_FOUND', 'Consent not found or has expired'),
    );
  });

  it("answers 'API call failed: {status}' for a failure that names no catalogue code", async () => {
    answer(502, { success: false, error: { code: 'UPSTREAM_EXPLODED', message: 'boom' } });
    await expect(call('/api/auth/me', { schema: ok })).rejects.toEqual(
      new ApiError(502, 'API_CALL_FAILED', 'API call failed: 502'),
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    await expect(call('/api/auth/me', { schema: ok })).rejects.toEqual(
      new ApiError(502, 'API_CALL_FAILED', 'API call failed: 502'),
    );
  });

  it("answers 'API request failed' with status 0 when the server cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(call('/api/auth/me', { schema: ok })).rejects.toEqual(
      new ApiError(0, 'API_REQUEST_FAILED', 'API request failed'),
    );
  });

  it("answers 'API request failed' for a success the page's schema does not parse", async () => {
    answer(200, { success: 'yes' });
    await expect(call('/api/auth/me', { schema: ok })).rejects.toEqual(
      new ApiError(200, 'API_REQUEST_FAILED', 'API request failed'),
    );
  });

  it('tells failures apart by code', async () => {
    answer(401, {
      success: false,
      error: { code: 'TEMPORARY_KEY_EXPIRED', message: 'Any words at all' },
    });
    const failure = await call('/api/auth/login', { method: 'POST', schema: ok }).catch(
      (error: unknown) => error,
    );
    expect(isApiError(failure, 'TEMPORARY_KEY_EXPIRED')).toBe(true);
    expect(isApiError(failure, 'TOKEN_EXPIRED', 'LOGIN_FAILED')).toBe(false);
    expect(isApiError(failure)).toBe(true);
    expect(isApiError(new Error('Temporary key expired'), 'TEMPORARY_KEY_EXPIRED')).toBe(false);
  });
});

describe('apiFetch', () => {
  it('parses the answer with the schema it names, loading the calling code at the first call', async () => {
    const config = {
      success: true,
      productName: 'Oya Money',
      debugTools: false,
      sandbox: true,
      capabilities: ALL_CAPABILITIES_ON,
      terminal: 'reader',
    };
    answer(200, config);
    await expect(
      apiFetch('/api/public-config', { answer: 'ZPublicConfigResponse' }),
    ).resolves.toEqual(config);
    answer(200, { success: true, productName: 7 });
    await expect(
      apiFetch('/api/public-config', { answer: 'ZPublicConfigResponse' }),
    ).rejects.toMatchObject({ code: 'API_REQUEST_FAILED' });
  });
});
