import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { expectNoViolations } from './axe';
import { E2E } from './e2e-env';
import { addVirtualAuthenticator, signUpThroughPanel, uniquePhone } from './auth-support';
import { GRANTED_CONSENT_BODY, GRANTED_CONSENT_KEY } from './fixtures';
import {
  consentPath,
  consentPathReadByPage,
  createConsent,
  embedHostUrl,
  printFramesOnFailure,
  receivedMessages,
  snap,
  takenOver,
} from './merchant';

printFramesOnFailure();

/** Holds the page's scripts back until the answer is called: a payer on a slow network. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const monthly = (month: number) => ({
  type: 'future',
  amount: 1_500_000,
  amountType: 'fixed',
  narration: 'Gym membership',
  frequency: 'monthly',
  interval: 1,
  dueDate: new Date(Date.UTC(2027, month, 1, 9)).toISOString(),
});

const everything = {
  payments: [
    { type: 'immediate', amount: 250_000, narration: 'Joining fee' },
    ...[0, 1, 2, 3].map(monthly),
  ],
  dataSharing: { bvnData: true, ninData: true, userImages: true, bankAccounts: true },
  actOnBehalfOf: {
    role: { name: 'Sales Agent' },
    fullName: 'Bisi Adeyemi',
    name: 'Bisi',
    image: null,
    location: 'Ikeja, Lagos',
  },
};

/** A new payer, signed up and signed in on this page. */
async function signedUpPayer(page: Page) {
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Bisi Okafor', phone: uniquePhone() });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
}

/** A consent asking only for an immediate payment of ₦1,800.00. */
const shoesConsent = (page: Page) =>
  createConsent(page.request, {
    payments: [{ type: 'immediate', amount: 180_000, narration: 'Order #310 shoes' }],
  });

test.describe('standalone consent page', () => {
  test('shows Missing Client ID without a clientId, with the way back to the merchant', async ({
    page,
  }, testInfo) => {
    await page.goto('/r/cns_anything');
    await expect(page.getByRole('heading', { name: 'Missing Client ID' })).toBeVisible();
    await expect(
      page.getByText(
        'The clientId parameter is required in the URL. Please ensure the URL includes ?clientId=your_client_id',
      ),
    ).toBeVisible();
    // A reload of the same address rarely helps: the way back is said beside the spec's Try Again.
    await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    await expect(page.getByText(/Go back to the merchant who sent it to you/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Report Error & Close' })).toHaveCount(0);
    await expectNoViolations(page);
    await snap(page, testInfo, 'missing-client-id');
  });

  test('shows Loading consent... while the consent loads', async ({ page }, testInfo) => {
    const consentId = await createConsent(page.request, everything);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Holds the real answer back until the loading screen has been seen; nothing is faked.
    await page.route('**/api/consent/**', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(consentPathReadByPage(consentId));
    await expect(page.getByRole('status')).toHaveText('Loading consent...');
    await expectNoViolations(page);
    await snap(page, testInfo, 'loading');
    release();
    await expect(page.getByText('Bisi Adeyemi')).toBeVisible();
  });

  test('shows Consent Not Found with the load error for an unknown consent', async ({
    page,
  }, testInfo) => {
    await page.goto(consentPath('cns_does_not_exist'));
    await expect(page.getByRole('heading', { name: 'Consent Not Found' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Consent not found or has expired');
    await expect(page.getByRole('button', { name: 'Report Error & Close' })).toHaveCount(0);
    await expectNoViolations(page);
    await snap(page, testInfo, 'not-found');
  });

  test("shows the 403 message for another merchant client's consent", async ({ page }) => {
    const consentId = await createConsent(page.request, everything);
    await page.goto(`/r/${consentId}?clientId=${E2E.otherClientId}`);
    await expect(page.getByRole('alert')).toHaveText(
      'Unauthorized: This clientId is not authorized to access this consent',
    );
  });

  test('Try Again loads the consent again', async ({ page }) => {
    const consentId = await createConsent(page.request, everything);
    let failures = 3; // the first load and both automatic retries
    await page.route('**/api/consent/**', async (route) => {
      if (failures-- > 0) return route.abort('connectionrefused');
      return route.continue();
    });
    await page.goto(consentPathReadByPage(consentId));
    // Two automatic retries, 1 s and 2 s apart, come first.
    await expect(page.getByRole('alert')).toHaveText('Failed to load consent data');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByText('Bisi Adeyemi')).toBeVisible();
  });

  // One column at 390 px; at 1280 px the side panel beside it (spec §2, from 768 px).
  test(
    'shows the header, merchant, colours and a summary of what a pending consent asks',
    { tag: '@both-widths' },
    async ({ page }, testInfo) => {
      const consentId = await createConsent(page.request, everything);
      await page.goto(consentPath(consentId));
      await expect(page).toHaveTitle('Tola Stores - Consent Request');
      await expect(page.locator('link[rel="icon"]')).toHaveAttribute(
        'href',
        '/demo/merchant-logo.svg',
      );
      const header = page.getByRole('banner');
      await expect(header.getByText('Consent Request')).toBeVisible();
      await expect(header.getByText('Tola Stores')).toBeVisible();
      await expect(header).toHaveCSS('background-color', 'rgb(18, 59, 82)'); // merchant secondary
      // The card's own screen (at 1280 px the side panel repeats some of it).
      const main = page.getByRole('main');
      for (const ask of [
        'Collect ₦2,500.00 immediately',
        'Schedule 4 future payments',
        'Access your BVN data',
        'Access your NIN data',
        'Access your user images',
        'Access your bank account information',
      ]) {
        await expect(main.getByRole('listitem').filter({ hasText: ask })).toBeVisible();
      }
      // Four identical monthly payments are one row of the schedule.
      await expect(main.getByText('4 × ₦15,000.00')).toBeVisible();
      // Two columns from 768 px: the side panel beside the card, and the representative shown
      // once, there; one column below, the representative in the card.
      const aside = page.getByRole('complementary', { name: 'Consent summary' });
      const representative = 'Sales Agent · Ikeja, Lagos';
      if ((page.viewportSize()?.width ?? 0) >= 768) {
        await expect(aside.getByRole('heading', { name: 'Share Consent' })).toBeVisible();
        await expect(aside.getByText(representative)).toBeVisible();
        await expect(main.getByText(representative)).toBeHidden();
      } else {
        await expect(main.getByText(representative)).toBeVisible();
        await expect(aside).toHaveCount(0);
      }
      await expectNoViolations(page);
      await snap(page, testInfo, 'pending-consent');
    },
  );

  test('hides the header when the consent has only an immediate payment', async ({ page }) => {
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 99_900, narration: 'Order 5' }],
    });
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('heading', { name: 'Immediate Payment' })).toBeVisible();
    await expect(page.getByText('₦999.00 due now')).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
  });

  for (const [name, value, rgb] of [
    ['bg', '0f0', 'rgb(0, 255, 0)'],
    ['bgColor', '%23336699', 'rgb(51, 102, 153)'],
    ['background', 'FFEEDD', 'rgb(255, 238, 221)'],
  ] as const) {
    test(`paints the page with the ${name} parameter`, async ({ page }) => {
      const consentId = await createConsent(page.request, { dataSharing: { ninData: true } });
      await page.goto(consentPath(consentId, `${name}=${value}`));
      await expect(page.getByRole('main').getByText('Access your NIN data')).toBeVisible();
      await expect(page.locator('.page')).toHaveCSS('background-color', rgb);
    });
  }

  test('fills the window in full-screen mode (fs=true)', async ({ page }) => {
    const consentId = await createConsent(page.request, { dataSharing: { ninData: true } });
    await page.goto(consentPath(consentId, 'fs=true'));
    await expect(page.getByText('Access your NIN data')).toBeVisible();
    const viewport = page.viewportSize();
    const card = await page.locator('.card').boundingBox();
    expect(card?.width).toBe(viewport?.width);
    expect(card?.height).toBeGreaterThanOrEqual(viewport?.height ?? Infinity);
  });

  test('shows the bg colour on the full-screen card when the text reads on it (fs=true)', async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, { dataSharing: { ninData: true } });
    await page.goto(consentPath(consentId, 'fs=true&bg=FFF7E6'));
    await expect(page.getByText('Access your NIN data')).toBeVisible();
    const cardColour = () =>
      page.locator('.card').evaluate((card) => getComputedStyle(card).backgroundColor);
    expect(await cardColour()).toBe('rgb(255, 247, 230)');
    // Scanned in accessibility.spec.ts.
    await snap(page, testInfo, 'consent-full-screen-bg');
    // A dark bg the text would not read on leaves the card white.
    await page.goto(consentPath(consentId, 'fs=true&bg=1F2937'));
    await expect(page.getByText('Access your NIN data')).toBeVisible();
    expect(await cardColour()).toBe('rgb(255, 255, 255)');
  });

  test('shows Consent Granted with its details and footer', async ({ page }, testInfo) => {
    const consentId = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    await page.goto(consentPath(consentId));
    await expect(
      page.getByText('You have successfully granted consent to Tola Stores'),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Payment Collected' })).toBeVisible();
    await expect(page.getByText('₦7,500.00')).toBeVisible();
    await expect(page.getByText('Order #88')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Future Payments Authorized' })).toBeVisible();
    await expect(page.getByText('+1 more payment')).toBeVisible();
    await expect(page.getByText("You'll be notified before each debit.")).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Data Shared' })).toBeVisible();
    await expect(page.getByText(/^Granted on /)).toBeVisible();
    await expect(page.getByText('Bank transfer', { exact: true })).toBeVisible();
    // A guest has no registered contact to send confirmations to.
    await expect(page.getByText('Confirmations sent to your registered contact.')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'View Details' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Complete & Close' })).toHaveCount(0);
    await expectNoViolations(page);
    await snap(page, testInfo, 'granted');
  });
});

// The server draws the first screen; the page's scripts take it over where it is
// (docs/first-screen.md).
test.describe('drawn on the server', () => {
  test(
    'shows the consent with scripts off: who asks, for what, and how to go on',
    { tag: '@both-widths' },
    async ({ browser }, testInfo) => {
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: testInfo.project.use.viewport ?? { width: 390, height: 844 },
      });
      const page = await context.newPage();
      const consentId = await createConsent(page.request, everything);
      await page.goto(consentPath(consentId));
      await expect(page).toHaveTitle('Tola Stores - Consent Request');
      await expect(page.getByRole('heading', { name: 'They would like to:' })).toBeVisible();
      await expect(page.getByText('Collect ₦2,500.00 immediately')).toBeVisible();
      await expect(page.getByText('Please sign in to grant consent')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
      // The side panel is in the page at every width; the stylesheet shows it from 768 px.
      const panel = page.getByRole('complementary', { name: 'Consent summary' });
      if ((testInfo.project.use.viewport?.width ?? 390) >= 768) await expect(panel).toBeVisible();
      else await expect(panel).toBeHidden();
      await snap(page, testInfo, 'drawn-without-scripts');
      await context.close();
    },
  );

  test("answers a tap made before its scripts came: 'Pay by Transfer' is held, then given", async ({
    page,
  }) => {
    const consentId = await createConsent(page.request, {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Joining fee' }],
    });
    // The page's scripts are held back until 11 s after the payer has tapped, as on a loaded
    // phone: longer than a link's tap waits for them (a button does nothing without them).
    const release = await holdScripts(page);
    await page.goto(consentPath(consentId), { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: /Pay by Transfer/ }).click();
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    release();
    await expect(page.getByText('Account number', { exact: true })).toBeVisible();
  });

  test("answers a signed-in payer's tap made before the screen for their session came: held, then given to it", async ({
    page,
  }) => {
    await signedUpPayer(page);
    const consentId = await shoesConsent(page);
    // The server draws the page without the payer's session: the signed-out screen, which the
    // page replaces with the signed-in one once its scripts read the session. They are held back
    // until the payer has tapped 'Pay with Card' on the drawn screen, and the consent flow's own
    // code comes 11 s after that, as it did on a loaded machine: longer than a tap was once held.
    const release = await holdScripts(page);
    let tap!: () => void;
    const tapped = new Promise<void>((resolve) => (tap = resolve));
    await page.route('**/assets/consent-flow-*.js', async (route) => {
      await tapped;
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      await route.continue();
    });
    await page.goto(consentPath(consentId), { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('button', { name: /Sign In to Pay/ })).toBeVisible();
    await page.getByRole('button', { name: /Pay with Card/ }).click();
    tap();
    release();
    await expect(page.getByRole('link', { name: 'Your consents' })).toBeVisible();
    await expect(page.getByLabel('Card Number')).toBeVisible();
  });

  test("a signed-in payer's tap as the page loads on a slow phone opens the card form, the screen never blinking to Loading", async ({
    page,
  }) => {
    await signedUpPayer(page);
    // A phone six times slower: the session is read, and the signed-in screen's code asked for,
    // while the payer is already tapping. Drawn at once, that screen put the Loading screen in
    // place of the drawn one until its code came, and a tap then landed on nothing (1 in 6 here).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    for (let round = 0; round < 3; round += 1) {
      const consentId = await shoesConsent(page);
      await page.goto(consentPath(consentId), { waitUntil: 'commit' });
      await page.getByRole('button', { name: /Pay with Card/ }).click();
      await expect(page.getByLabel('Card Number')).toBeVisible();
    }
  });

  test('is painted once, then taken over by its scripts without reading the consent again, and answers at once', async ({
    page,
  }) => {
    const consentId = await createConsent(page.request, everything);
    const reads: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/consent/') || pathname === '/api/public-config') {
        reads.push(pathname);
      }
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // The page paints once: every largest paint the browser reports, noted before any script.
    await page.addInitScript(() => {
      const seen: Element[] = [];
      (window as unknown as { largestPaints: Element[] }).largestPaints = seen;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element })[]) {
          if (entry.element) seen.push(entry.element);
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(consentPath(consentId));
    await takenOver(page);
    // The screen was painted before any script was asked for, and the scripts kept the nodes the
    // server drew: every element the browser reported as its largest paint is still in the page.
    const painted = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => entry.startTime);
      const largest = (window as unknown as { largestPaints: Element[] }).largestPaints;
      return {
        scriptsBeforePaint: scripts.filter((start) => !(start >= fcp)).length,
        scripts: scripts.length,
        largestPaints: largest.length,
        largestPaintsGone: largest.filter((element) => !element.isConnected).length,
      };
    });
    expect(painted.scripts).toBeGreaterThan(0);
    expect(painted.scriptsBeforePaint).toBe(0);
    expect(painted.largestPaints).toBeGreaterThan(0);
    expect(painted.largestPaintsGone).toBe(0);
    // 'Sign In' opens the auth prompt: the page's own state, so its scripts have the screen.
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    expect(reads).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** 'Report Error & Close' in the frame: 'Closing...', and the merchant's page hears consent-failed. */
async function reportAndClose(page: Page, frame: FrameLocator, consentId: string, error: string) {
  await frame.getByRole('button', { name: 'Report Error & Close' }).click();
  await expect(frame.getByRole('button', { name: 'Closing...' })).toBeVisible();
  await expect
    .poll(() => receivedMessages(page))
    .toContainEqual({
      origin: E2E.appOrigin,
      data: { type: 'oya-money-consent-failed', consentId, error },
    });
}

/** Cuts the consent page's own code while `online()` is false, as a dropped connection would. */
async function cutPageCode(page: Page, online: () => boolean) {
  await page.route(/\/(assets\/consent-route-[^/]*\.js|favicon\.svg)$/, (route) =>
    online() ? route.fallback() : route.abort('internetdisconnected'),
  );
}

test.describe('whose code does not come', () => {
  test("says so instead of the drawn screen; 'Try Again' opens it again once the server answers", async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, everything);
    let online = false;
    await cutPageCode(page, () => online);
    await page.goto(consentPath(consentId));
    await expect(page.getByRole('heading', { name: 'Consent Error' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Something went wrong. Please try again.');
    // In the merchant's colours, as the server drew the page (app-server.ts: primary #0E7C66).
    await expect(page.getByRole('button', { name: 'Try Again' })).toHaveCSS(
      'background-color',
      'rgb(14, 124, 102)',
    );
    // Standalone: nothing to report to.
    await expect(page.getByRole('button', { name: 'Report Error & Close' })).toHaveCount(0);
    await snap(page, testInfo, 'consent-code-failed');
    await expectNoViolations(page);

    // Still offline: the page stays, not the browser's offline page.
    const tryAgain = page.getByRole('button', { name: 'Try Again' });
    await tryAgain.click();
    await expect(tryAgain).toBeEnabled();
    await expect(page.getByRole('heading', { name: 'Consent Error' })).toBeVisible();

    online = true;
    await Promise.all([page.waitForEvent('load'), tryAgain.click()]);
    await expect(page.getByRole('heading', { name: 'They would like to:' })).toBeVisible();
    await takenOver(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Authenticate' })).toBeVisible();
  });

  test("embedded, 'Report Error & Close' tells the merchant's page", async ({ page }) => {
    const consentId = await createConsent(page.request, everything);
    await cutPageCode(page, () => false);
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('alert')).toHaveText('Something went wrong. Please try again.');
    await reportAndClose(page, frame, consentId, 'Something went wrong. Please try again.');
  });
});

test.describe('embedded in a merchant page', () => {
  test('reports Missing clientId to the parent and offers Report Error & Close', async ({
    page,
  }, testInfo) => {
    await page.goto(embedHostUrl('/r/cns_anything?embed=true'));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('heading', { name: 'Missing Client ID' })).toBeVisible();
    await expect
      .poll(() => receivedMessages(page))
      .toContainEqual({
        origin: E2E.appOrigin,
        data: {
          type: 'oya-money-consent-failed',
          consentId: 'cns_anything',
          error: 'Missing clientId parameter',
        },
      });
    await frame.getByRole('button', { name: 'Report Error & Close' }).click();
    await expect(frame.getByRole('button', { name: 'Closing...' })).toBeDisabled();
    await snap(page, testInfo, 'embed-missing-client-id');
  });

  test('reports its height and hides the header', async ({ page }, testInfo) => {
    const consentId = await createConsent(page.request, everything);
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByText('Collect ₦2,500.00 immediately')).toBeVisible();
    await expect(frame.getByRole('banner')).toHaveCount(0);
    await expect
      .poll(async () =>
        (await receivedMessages(page)).filter((m) => m.data.type === 'oya-money-height-update'),
      )
      .not.toHaveLength(0);
    const heights = (await receivedMessages(page)).filter(
      (m) => m.data.type === 'oya-money-height-update',
    );
    for (const message of heights) {
      expect(message.origin).toBe(E2E.appOrigin);
      expect(message.data.height).toBeGreaterThanOrEqual(200); // spec §9: minimum 200 px
    }
    await expectNoViolations(page);
    await snap(page, testInfo, 'embed-pending');
  });

  test('offers Report Error & Close on Consent Not Found', async ({ page }) => {
    await page.goto(embedHostUrl(consentPath('cns_missing', 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('alert')).toHaveText('Consent not found or has expired');
    await reportAndClose(page, frame, 'cns_missing', 'Consent not found or has expired');
  });

  test('tells a registered parent of the granted consent once, with details behind a toggle', async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(
      frame.getByText('You have successfully granted consent to Tola Stores'),
    ).toBeVisible();
    await expect(frame.getByRole('heading', { name: 'Payment Collected' })).toBeHidden();
    await frame.getByRole('button', { name: 'View Details' }).click();
    await expect(frame.getByRole('heading', { name: 'Payment Collected' })).toBeVisible();
    await snap(page, testInfo, 'embed-granted-details');
    await frame.getByRole('button', { name: 'Hide Details' }).click();
    await expect(frame.getByRole('heading', { name: 'Payment Collected' })).toBeHidden();
    await frame.getByRole('button', { name: 'Complete & Close' }).click();
    await expect
      .poll(async () => (await receivedMessages(page)).map((m) => m.data.type))
      .toContain('oya-money-consent-completed');
    const messages = await receivedMessages(page);
    const successes = messages.filter((m) => m.data.type === 'oya-money-consent-success');
    expect(successes).toHaveLength(1);
    expect(successes[0]?.origin).toBe(E2E.appOrigin);
    expect((successes[0]?.data.consentData as { consentId: string }).consentId).toBe(consentId);
  });

  test('cannot be framed by an origin the merchant did not register', async ({ page }) => {
    const consentId = await createConsent(page.request, everything);
    const blocked = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true'), E2E.strangerOrigin));
    await blocked;
    // The browser refused the frame before our page ran: nothing of it shows, nothing was posted.
    await expect(
      page.frameLocator('#consent').getByText('Collect ₦2,500.00 immediately'),
    ).toHaveCount(0);
    expect(await receivedMessages(page)).toEqual([]);
  });
});
