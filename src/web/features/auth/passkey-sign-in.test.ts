// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { passkeyApprovalMessage } from '../../../domain/schemas/auth';
import { ApiError } from '../../api/api-error';
import { STORAGE_KEYS } from '../../api/session';

const authApi = vi.hoisted(() => ({
  openDiscovery: vi.fn(),
  signInOptions: vi.fn(),
  login: vi.fn(),
  registerPasskey: vi.fn(),
}));
const browser = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('../../api/auth', () => ({ authApi }));
vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: browser.startAuthentication,
  startRegistration: vi.fn(),
  WebAuthnError: class extends Error {},
}));

const { openDiscovery, savePasskey, signInWithPasskey } = await import('./passkey-sign-in');

const assertion = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  clientExtensionResults: {},
};
const loginAnswer = {
  success: true,
  token: 't',
  user: {},
  expiresAt: '',
  newAccount: false,
  passkeyCount: 1,
};
const temporaryKeyExpired = new ApiError(401, 'TEMPORARY_KEY_EXPIRED', 'Temporary key expired');

beforeEach(() => {
  vi.resetAllMocks();
  localStorage.clear();
  authApi.openDiscovery.mockResolvedValue({ discoveryId: 'dsc_1' });
  authApi.signInOptions.mockResolvedValue({ options: { challenge: 'Y2hhbGxlbmdlLWNoYWxsZW5nZQ' } });
  browser.startAuthentication.mockResolvedValue(assertion);
});

describe('signInWithPasskey', () => {
  it('names the client, the discovery and the auth app in the login call', async () => {
    authApi.login.mockResolvedValue(loginAnswer);
    await signInWithPasskey({ clientId: 'cli_1', consentId: 'cns_1', authAppId: 'app_1' });
    expect(authApi.openDiscovery).toHaveBeenCalledWith({
      clientId: 'cli_1',
      consentId: 'cns_1',
      authAppId: 'app_1',
    });
    expect(authApi.login).toHaveBeenCalledWith({
      method: 'passkey',
      clientId: 'cli_1',
      discoveryId: 'dsc_1',
      authAppId: 'app_1',
      response: assertion,
    });
  });

  it("restarts once with 'Re-authenticating...' when the temporary key expired (spec §8)", async () => {
    authApi.login.mockRejectedValueOnce(temporaryKeyExpired).mockResolvedValueOnce(loginAnswer);
    const statuses: string[] = [];
    const result = await signInWithPasskey(
      { clientId: 'cli_1' },
      { onStatus: (s) => statuses.push(s) },
    );
    expect(result).toBe(loginAnswer);
    expect(statuses).toEqual(['Re-authenticating...']);
    expect(authApi.openDiscovery).toHaveBeenCalledTimes(2);
  });

  it('gives up after the restart fails too, and passes other failures straight on', async () => {
    authApi.login.mockRejectedValue(temporaryKeyExpired);
    await expect(signInWithPasskey({ clientId: 'cli_1' })).rejects.toBe(temporaryKeyExpired);
    expect(authApi.login).toHaveBeenCalledTimes(2);
    const refused = new ApiError(401, 'PASSKEY_NOT_RECOGNISED', 'not here');
    authApi.login.mockReset().mockRejectedValue(refused);
    await expect(signInWithPasskey({ clientId: 'cli_1' })).rejects.toBe(refused);
    expect(authApi.login).toHaveBeenCalledTimes(1);
  });
});

describe('openDiscovery', () => {
  it('clears user, token and attestation data on a 404 (spec §8)', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.user, '{}');
    localStorage.setItem(STORAGE_KEYS.attestationUserData, '{}');
    authApi.openDiscovery.mockRejectedValue(
      new ApiError(404, 'CONSENT_NOT_FOUND', 'Consent not found or has expired'),
    );
    await expect(
      openDiscovery({ clientId: 'cli_1', consentId: 'cns_gone' }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.length).toBe(0);
  });
});

describe('savePasskey', () => {
  const created = {
    token: 'tok',
    registrationChallenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',
    response: {
      id: 'newcred',
      rawId: 'newcred',
      type: 'public-key' as const,
      response: { clientDataJSON: 'e30', attestationObject: 'AA' },
      clientExtensionResults: {},
    },
    approval: {
      needed: true,
      rpId: 'localhost',
      allowCredentials: [{ id: 'oldcred', type: 'public-key' as const }],
      unapprovedSignsFrom: '2030-01-02T00:00:00.000Z',
    },
  };

  it('asks an existing passkey to sign the approval of exactly this registration', async () => {
    await savePasskey(created, true);
    const expected = Buffer.from(
      await crypto.subtle.digest(
        'SHA-256',
        new TextEncoder().encode(
          passkeyApprovalMessage({
            registrationChallenge: created.registrationChallenge,
            credentialId: 'newcred',
          }),
        ),
      ),
    ).toString('base64url');
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: expect.objectContaining({
        challenge: expected,
        rpId: 'localhost',
        allowCredentials: created.approval.allowCredentials,
        userVerification: 'required',
      }),
    });
    expect(authApi.registerPasskey).toHaveBeenCalledWith(
      { response: created.response, approval: assertion },
      'tok',
    );
  });

  it('without approval, sends the new passkey alone and asks no other passkey', async () => {
    await savePasskey(created, false);
    expect(browser.startAuthentication).not.toHaveBeenCalled();
    expect(authApi.registerPasskey).toHaveBeenCalledWith({ response: created.response }, 'tok');
  });
});
