import { expect, test } from '@playwright/test';
import { NO_PASSKEY_TEXTS, THREE_DS_TEXTS } from '../../src/domain/in-app-browser';
import { eventFromBridgeMessage } from '../../src/sdk/oya-consent';
import { expectNoViolations } from './axe';
import { consentPath, createConsent, snap } from './merchant';
import { payWithCard } from './pay-now-support';

// Where Nigerian payers open links: an app's in-app browser, a page whose window.open opens
// nothing, a browser without passkeys, and a merchant's React Native app. The rules behind each are
// src/domain/in-app-browser.ts (with its table of user agents).

const payment = { type: 'immediate', amount: 150_000, narration: 'Order #2210 sandals' };

const INSTAGRAM_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 290.0.0.13.81 (iPhone13,2; iOS 16_5; en_US; en; scale=3.00; 1170x2532; 489720907)';

test.describe("in Instagram's browser", () => {
  test.use({ userAgent: INSTAGRAM_IPHONE });

  test('3-D Secure opens in the same window and comes back to the payment, paid', async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, { payments: [payment] });
    await page.goto(consentPath(consentId));
    await payWithCard(page, 'three_ds');
    await expect(page.getByText(THREE_DS_TEXTS.same_window)).toBeVisible();
    await snap(page, testInfo, 'in-app-3ds-same-window');
    await expectNoViolations(page);

    await page.getByRole('link', { name: THREE_DS_TEXTS.button }).click();
    await page.waitForURL(/\/sandbox\/3ds\/[^?]+\?return=/);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`**/r/${consentId}?**`);
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });
});

test('where window.open opens nothing, 3-D Secure says so and opens in the same window; declined, it fails there', async ({
  page,
}, testInfo) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  await payWithCard(page, 'three_ds');
  // A browser of its own: the spec's new tab, until it opens none.
  await expect(page.getByText(THREE_DS_TEXTS.new_tab)).toBeVisible();
  const proceed = page.getByRole('link', { name: THREE_DS_TEXTS.button });
  await proceed.click();
  // No tab opened: the page stays and says so, and no longer says a new tab; the same button,
  // still focused, now opens the check in this window, as the page says.
  await expect(page.getByRole('status').filter({ hasText: THREE_DS_TEXTS.no_tab })).toBeVisible();
  await expect(page.getByText(THREE_DS_TEXTS.same_window)).toBeVisible();
  await expect(page.getByText(/in a new tab/)).toHaveCount(0);
  await expect(proceed).toBeFocused();
  await expect(proceed).not.toHaveAttribute('target', /.*/);
  await snap(page, testInfo, 'no-tab-3ds-same-window');
  await expectNoViolations(page);
  await proceed.click();
  await page.waitForURL(/\/sandbox\/3ds\//);
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.waitForURL(`**/r/${consentId}?**`);
  await expect(page.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try Another Method' })).toBeVisible();

  // A second check in this tab says this window from the start: no tab was opened before.
  await page.getByRole('button', { name: 'Try Another Method' }).click();
  await payWithCard(page, 'three_ds');
  await expect(page.getByText(THREE_DS_TEXTS.same_window)).toBeVisible();
  await expect(page.getByText(/in a new tab/)).toHaveCount(0);
});

test('without passkeys: says so, offers the browser, and transfer and card still pay', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => {
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  });
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  const notice = page.getByRole('region', { name: NO_PASSKEY_TEXTS.title });
  await expect(notice).toBeVisible();
  await expect(notice.getByText(NO_PASSKEY_TEXTS.payMeanwhile)).toBeVisible();
  // The saved accounts' sign-in needs a passkey: the notice says why it is missing.
  await expect(page.getByRole('button', { name: 'Sign In to Pay with OneTap' })).toHaveCount(0);
  const transfer = page.getByRole('button', { name: /Pay by Transfer/ });
  await expect(transfer).toBeVisible();
  await expect(page.getByRole('button', { name: /Pay with Card/ })).toBeVisible();
  // The ways to pay come first, in full on the first screen; the notice follows them.
  await expect(transfer).toBeInViewport({ ratio: 1 });
  const methodsBox = await page.getByRole('group', { name: 'Payment methods' }).boundingBox();
  const noticeBox = await notice.boundingBox();
  expect(methodsBox && noticeBox && methodsBox.y + methodsBox.height <= noticeBox.y).toBe(true);

  await notice.getByRole('button', { name: NO_PASSKEY_TEXTS.openInBrowser }).click();
  await expect(notice.getByText(NO_PASSKEY_TEXTS.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    new URL(consentPath(consentId), page.url()).href,
  );
  await snap(page, testInfo, 'no-passkey-payment');
  await expectNoViolations(page);

  // A consent that asks for sign-in: no passkey button, the notice, and the SMS code.
  const signIn = await createConsent(page.request, {
    payments: [payment],
    dataSharing: { bvnData: true },
    requirements: { requiresAuth: true },
  });
  await page.goto(consentPath(signIn));
  await expect(page.getByRole('region', { name: NO_PASSKEY_TEXTS.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Use a code sent by SMS instead' })).toBeVisible();
  await snap(page, testInfo, 'no-passkey-auth-prompt');
  await expectNoViolations(page);
});

test("a React Native app's webview hears the payment and the grant as typed events", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const heard: string[] = [];
    Object.assign(window, {
      heard,
      ReactNativeWebView: { postMessage: (message: string) => heard.push(message) },
    });
  });
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId, 'embed=true'));
  await payWithCard(page, 'pin_only');
  const events = async () =>
    (await page.evaluate(() => (window as unknown as { heard: string[] }).heard))
      .map(eventFromBridgeMessage)
      .filter((event) => event !== null && event.type !== 'resized');
  await expect.poll(async () => (await events()).map((event) => event?.type)).toContain('granted');
  expect(await events()).toEqual(
    expect.arrayContaining([
      { type: 'step', consentId, step: 'immediate_payment' },
      expect.objectContaining({ type: 'payment', consentId, status: 'started', method: 'card' }),
      expect.objectContaining({ type: 'payment', consentId, status: 'completed' }),
      expect.objectContaining({ type: 'granted', consentId }),
    ]),
  );
});
