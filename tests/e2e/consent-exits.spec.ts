import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  latestCode,
  signedUpSession,
  signUpThroughPanel,
  storeInFrame,
  uniquePhone,
} from './auth-support';
import { E2E } from './e2e-env';
import { GRANTED_CONSENT_BODY, GRANTED_CONSENT_KEY } from './fixtures';
import { ownAccount, payWithCardSavingIt, verifyOwnBvn } from './linking-support';
import { consentPath, createConsent, embedHostUrl, printFramesOnFailure, snap } from './merchant';
import { mintPerson, personCard } from './sandbox-people';

printFramesOnFailure();

// Who is asking, the ways out of a consent that cannot be opened, the way to the payer's own
// consents, and one h1 on every sign-in step, in real Chromium against the real server.

const MERCHANT = 'Tola Stores';
const BACK_TO_MERCHANT =
  'This link cannot open the consent. Go back to the merchant who sent it to you and open the consent again from their page or message.';

const subscription = {
  payments: [1, 2].map((month) => ({
    type: 'future',
    amount: 1_500_000,
    amountType: 'fixed',
    narration: 'Gym membership',
    frequency: 'monthly',
    interval: 1,
    dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
  })),
  dataSharing: { bvnData: true },
  actOnBehalfOf: {
    role: { name: 'Sales Agent' },
    fullName: 'Bisi Adeyemi',
    name: 'Bisi',
    image: null,
    location: 'Ikeja, Lagos',
  },
  requirements: { requiresAuth: true },
};

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `exits-${name}`);
  await expectNoViolations(page);
}

/** Stores a payer's session on the app's own origin, as a sign-in on /login would have. */
async function signInHere(page: Page, session: { token: string; user: string }) {
  await page.goto('/login');
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('paymonaToken', token);
    localStorage.setItem('paymonaUser', user);
  }, session);
}

test.describe('who is asking (item 7)', () => {
  test("@both-widths signed in inside the embed, the merchant's name is on screen", async ({
    page,
  }, testInfo) => {
    const session = await signedUpSession(page);
    const consentId = await createConsent(page.request, subscription);
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    await storeInFrame(page, session);
    await page.reload();
    await expect(frame.getByText('1 data point being shared')).toBeVisible();
    // The header stays hidden in embed mode (spec §2); the byline names the merchant instead.
    await expect(frame.getByRole('banner')).toHaveCount(0);
    await expect(frame.getByRole('main').getByText(MERCHANT, { exact: true })).toBeVisible();
    await expect(frame.getByText('Bisi Adeyemi')).toBeVisible();
    await look(page, testInfo, 'embedded-flow-byline');
  });

  test('@desktop standalone on a desktop, the representative is shown once, beside the card', async ({
    page,
  }, testInfo) => {
    const session = await signedUpSession(page);
    const consentId = await createConsent(page.request, subscription);
    await signInHere(page, session);
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('complementary', { name: 'Consent summary' })).toBeVisible();
    await expect(page.getByText('1 data point being shared')).toBeVisible();
    await expect(page.getByRole('banner').getByText(MERCHANT)).toBeVisible();
    await expect(page.getByText('Bisi Adeyemi').filter({ visible: true })).toHaveCount(1);
    await expect(
      page.getByRole('complementary', { name: 'Consent summary' }).getByText('Bisi Adeyemi'),
    ).toBeVisible();
    await look(page, testInfo, 'desktop-flow-representative-once');
  });
});

test.describe('a consent that cannot be opened (item 8)', () => {
  // Standalone without a clientId: consent-page.spec.ts 'shows Missing Client ID ...'.
  test("embedded without a clientId: Report Error & Close first, then the spec's Try Again", async ({
    page,
  }, testInfo) => {
    await page.goto(embedHostUrl('/r/cns_anything?embed=true'));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('heading', { name: 'Missing Client ID' })).toBeVisible();
    // The way on leads; the spec's 'Try Again' (a reload) follows it.
    await expect(frame.getByRole('button')).toHaveText(['Report Error & Close', 'Try Again']);
    await expect(frame.getByText(BACK_TO_MERCHANT)).toHaveCount(0);
    await look(page, testInfo, 'embedded-missing-client-id');
  });

  test("standalone, another client's consent: the 403 text and the way back", async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, subscription);
    await page.goto(`/r/${consentId}?clientId=${E2E.otherClientId}`);
    await expect(page.getByRole('alert')).toHaveText(
      'Unauthorized: This clientId is not authorized to access this consent',
    );
    await expect(page.getByText(BACK_TO_MERCHANT)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    await look(page, testInfo, 'unauthorized');
  });

  test('saving a card to a bank that takes no cards says what is not supported, and another account saves it', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' }],
    });
    // The payer's own person: their card pays, and their BVN is verified once they sign up.
    const person = await mintPerson(page.request, { fullName: 'Kola Ade' });
    await page.goto(consentPath(consentId));
    await payWithCardSavingIt(page, personCard(person, 'pin_only'));
    await page.getByRole('button', { name: 'Sign In & Save Card' }).click();
    await signUpThroughPanel(page, page.request, { fullName: 'Kola Ade', phone: uniquePhone() });
    await expect(page.getByRole('heading', { name: 'Save Your Card' })).toBeVisible();
    await verifyOwnBvn(page, person);

    const noCards = await ownAccount(page, 'links_by_test_transfer');
    await page.getByLabel('Account number').fill(noCards.accountNumber);
    const gtb = page.getByRole('radio', { name: /Guaranty Trust Bank/ });
    await gtb.check();
    await page.getByRole('button', { name: 'Save Card' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Not supported: Guaranty Trust Bank does not take cards, so your card cannot be saved to this account. Choose another account, or enter another account number.',
    );
    await expect(gtb).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save Card' })).toBeDisabled();
    await look(page, testInfo, 'save-card-not-supported');

    const cardAccount = await ownAccount(page, 'links_by_card');
    await page.getByLabel('Account number').fill(cardAccount.accountNumber);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page
      .getByRole('radio', { name: new RegExp(cardAccount.accountName) })
      .first()
      .check();
    await page.getByRole('button', { name: 'Save Card' }).click();
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });
});

test.describe("the payer's consents, one step away (item 11)", () => {
  test('Consent Granted links a signed-in payer to their consents', async ({ page }, testInfo) => {
    const session = await signedUpSession(page);
    const consentId = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    await signInHere(page, session);
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
    await look(page, testInfo, 'granted-your-consents');
    await page.getByRole('link', { name: 'Your consents' }).click();
    await expect(page).toHaveURL(/\/consents$/);
    await expect(page.getByRole('heading', { name: 'Your consents' })).toBeVisible();
  });

  test('embedded, Consent Granted opens the consents in a tab of their own', async ({ page }) => {
    const session = await signedUpSession(page);
    const consentId = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    await storeInFrame(page, session);
    await page.reload();
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
    const opened = page.context().waitForEvent('page');
    await frame.getByRole('link', { name: 'Your consents' }).click();
    const tab = await opened;
    await expect(tab.getByRole('heading', { name: 'Your consents' })).toBeVisible();
    await expect(page.frameLocator('#consent').getByText('Consent Granted')).toBeVisible();
  });

  test("the signed-in payer's page links to their consents", async ({ page }, testInfo) => {
    const session = await signedUpSession(page);
    await signInHere(page, session);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    await look(page, testInfo, 'signed-in-your-consents');
    await page.getByRole('link', { name: 'Your consents' }).click();
    await expect(page).toHaveURL(/\/consents$/);
    await expect(page.getByRole('heading', { name: 'Your consents' })).toBeVisible();
  });
});

test.describe('one h1 on every sign-in step of the auth prompt (item 12)', () => {
  test('the SMS phone form, the code form, the sign-up form and the passkey offer', async ({
    page,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    const consentId = await createConsent(page.request, subscription);
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('button', { name: 'Authenticate' })).toBeVisible();

    await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Sign in with a code' }),
    ).toBeVisible();
    await expect(page.getByRole('main', { name: 'Sign in with a code' })).toBeVisible();
    await look(page, testInfo, 'auth-sms-phone');

    const phone = uniquePhone();
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Enter your code' })).toBeVisible();
    await look(page, testInfo, 'auth-sms-code');
    await page.getByRole('button', { name: 'Use a different number' }).click();
    await page.getByRole('button', { name: 'Back' }).click();

    await page.getByRole('button', { name: 'Create an account' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create your account' }),
    ).toBeVisible();
    await look(page, testInfo, 'auth-sign-up');
    const newPhone = uniquePhone();
    await page.getByLabel('Full name').fill('Tobi Ojo');
    await page.getByLabel('Phone number').fill(newPhone);
    await page.getByRole('button', { name: 'Send code' }).click();
    // The code is read once the page says it was sent: an earlier one may be the latest yet.
    await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
    await page.getByLabel('6-digit code').fill(await latestCode(page.request, newPhone));
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create your passkey' }),
    ).toBeVisible();
    await look(page, testInfo, 'auth-passkey-offer');
  });
});
