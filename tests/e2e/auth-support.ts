// Payer identity helpers for end-to-end tests: Chromium's virtual passkey authenticator (CDP
// WebAuthn domain), sandbox SMS codes, and the sign-up steps a person takes.
import { expect, type APIRequestContext, type CDPSession, type Page } from '@playwright/test';
import { E2E } from './e2e-env';

/**
 * A platform authenticator with user verification, as a phone with a fingerprint reader:
 * resident keys, so sign-in needs no user name. It serves every frame of the page, the
 * merchant's iframe included.
 */
export async function addVirtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

export async function credentialCount(auth: { cdp: CDPSession; authenticatorId: string }) {
  const { credentials } = await auth.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: auth.authenticatorId,
  });
  return credentials.length;
}

/** A Nigerian mobile number no other test uses (tests run in parallel, twice per viewport). */
export function uniquePhone(): string {
  const digits = `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-8).padStart(8, '0');
  return `0803${digits.slice(-7)}`;
}

/**
 * Resolves once the server at `origin` has no SMS on its way: no job of the SMS group (`sms.*`:
 * the sends, and the asked BVN and recovery codes, which queue their SMS after the call answered)
 * waits or runs, as GET /api/health/ready counts them.
 */
async function smsSettled(request: APIRequestContext, origin: string): Promise<void> {
  await expect
    .poll(async () => {
      const response = await request.get(`${origin}/api/health/ready`);
      const { jobs } = (await response.json()) as {
        jobs: Array<{ kind: string; waiting: number; active: number }>;
      };
      return jobs
        .filter(({ kind }) => kind.startsWith('sms.'))
        .reduce((sum, { waiting, active }) => sum + waiting + active, 0);
    })
    .toBe(0);
}

/**
 * The code in the newest sandbox SMS to a number (the JSON twin of /sandbox/messages), on the
 * test server or on another server of the suite (`origin`), once no SMS is on its way there.
 */
export async function latestCode(
  request: APIRequestContext,
  phone: string,
  origin: string = E2E.appOrigin,
): Promise<string> {
  await smsSettled(request, origin);
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(
        `${origin}/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
      );
      const body = (await response.json()) as { messages: Array<{ body: string }> };
      code = /code is (\d{6})/.exec(body.messages[0]?.body ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  return code ?? '';
}

/**
 * Sign-in at /login by an SMS code alone, 'Not now' to the passkey offered after it: a session
 * that signs nothing with a passkey of this device (docs/identity.md).
 */
export async function signInByCodeAlone(page: Page, phone: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code is read once the page says it was sent: an earlier one may be the latest yet.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
}

/**
 * Sign-up as a person does it, from wherever the sign-in panel is shown (the /login page, the
 * auth prompt, or inside the merchant's iframe): name and number, the SMS code, a passkey.
 */
export async function signUpThroughPanel(
  scope: Page | ReturnType<Page['frameLocator']>,
  request: APIRequestContext,
  input: { fullName: string; phone: string; origin?: string },
) {
  await scope.getByRole('button', { name: 'Create an account' }).click();
  await scope.getByLabel('Full name').fill(input.fullName);
  await scope.getByLabel('Phone number').fill(input.phone);
  await scope.getByRole('button', { name: 'Send code' }).click();
  await expect(scope.getByText(/We sent a 6-digit code to 0803/)).toBeVisible();
  await scope.getByLabel('6-digit code').fill(await latestCode(request, input.phone, input.origin));
  await scope.getByRole('button', { name: 'Create account' }).click();
  await expect(scope.getByRole('heading', { name: 'Create your passkey' })).toBeVisible();
  await scope.getByRole('button', { name: 'Create passkey' }).click();
}

export type TStoredSession = {
  token: string | null;
  user: string | null;
  identifiedTo: string | null;
};

export function storedSession(page: Page): Promise<TStoredSession> {
  return page.evaluate(() => ({
    token: localStorage.getItem('paymonaToken'),
    user: localStorage.getItem('paymonaUser'),
    identifiedTo: localStorage.getItem('oyaIdentifiedTo'),
  }));
}

/** A payer signed up on the app's own page; the session it stored. */
export async function signedUpSession(page: Page) {
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Ngozi Eze', phone: uniquePhone() });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  const { token, user } = await storedSession(page);
  if (!token || !user) throw new Error('no session stored');
  // Signed out again on the app's own page: the frame starts without a session.
  await page.evaluate(() => localStorage.clear());
  return { token, user };
}

/** Puts the session into the frame's own storage, as a sign-in in another frame of ours would. */
export async function storeInFrame(page: Page, session: { token: string; user: string }) {
  const frame = page.frame({ url: (url) => url.origin === E2E.appOrigin });
  if (!frame) throw new Error('no consent frame');
  await frame.evaluate(({ token, user }) => {
    localStorage.setItem('paymonaToken', token);
    localStorage.setItem('paymonaUser', user);
  }, session);
  return frame;
}
