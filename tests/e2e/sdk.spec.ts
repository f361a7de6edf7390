// The embed script in a merchant's shop on another origin (docs/sdk.md): loaded from the app at its
// versioned address with its integrity hash, it opens the consent page in a modal or inline,
// follows its height, reports its outcome, and leaves nothing behind when destroyed.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SANDBOX_CARDS } from '../../src/server/sandbox/fixtures';
import { signedUpSession, storeInFrame } from './auth-support';
import { E2E } from './e2e-env';
import { GRANTED_CONSENT_BODY, GRANTED_CONSENT_KEY } from './fixtures';
import { createConsent, createForm, DELIVERY_FORM, shopUrl, snap } from './merchant';
import { SDK_ALIAS_URL, SDK_URL, sdkIntegrity } from './shop-page';

const ORDER = {
  payments: [
    { type: 'immediate', amount: 750_000, narration: 'Weekly vegetable box' },
    {
      type: 'future',
      amount: 750_000,
      amountType: 'fixed',
      narration: 'Weekly vegetable box',
      frequency: 'weekly',
      interval: 1,
      dueDate: new Date(Date.UTC(2027, 0, 7, 9)).toISOString(),
    },
  ],
  dataSharing: { bankAccounts: true },
};
const PENDING_TEXT = 'Collect ₦7,500.00 immediately';
const GRANTED_TEXT = 'You have successfully granted consent to Tola Stores';

type TShopEvent = {
  embed: string;
  type: string;
  height?: number;
  reason?: string;
  consentId?: string;
  step?: string;
  paymentId?: string;
  status?: string;
  method?: string;
  code?: string;
  error?: string;
};
type TShop = {
  events: TShopEvent[];
  callbacks: string[];
  embeds: { close(): void; destroy(): void; isOpen: boolean }[];
};
const shop = (page: Page) => page.evaluate(() => (window as unknown as { shop: TShop }).shop);
const callbacks = async (page: Page) => (await shop(page)).callbacks;

/** What the embed told of the payer's way through the consent, without heights and loads. */
const journey = async (page: Page) =>
  (await shop(page)).events
    .filter((e) => e.type !== 'resized' && e.type !== 'loaded')
    .map((e) =>
      [e.type, e.step ?? e.status ?? e.reason, e.method].filter((part) => part).join(' '),
    );

/**
 * Clicks a control of the modal's page once it has stayed put for 250 ms. The page reports its
 * height after a debounce (spec: 50–200 ms) and the modal, centred, moves as its iframe grows:
 * a click just after new content arrived can press on one spot and release on another, and is
 * then no click at all (what Playwright's own two-frame stability check lets through).
 */
async function clickSettled(control: Locator) {
  let last = '';
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await control.boundingBox());
        const settled = box === last && box !== 'null';
        last = box;
        return settled;
      },
      { intervals: [250] },
    )
    .toBe(true);
  await control.click();
}

/** The last height the page asked of one embed's iframe. */
const lastHeight = async (page: Page, embed: string) =>
  (await shop(page)).events.filter((e) => e.embed === embed && e.type === 'resized').at(-1)?.height;

/**
 * How many listeners of the types the script adds (message on window, keydown on document) are
 * on the page, read through the browser's debugger. Playwright adds listeners of its own when it
 * clicks: those are not counted.
 */
async function scriptListeners(page: Page): Promise<{ message: number; keydown: number }> {
  const cdp = await page.context().newCDPSession(page);
  const count = async (target: string, type: string) => {
    const { result } = await cdp.send('Runtime.evaluate', { expression: target });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', {
      objectId: result.objectId ?? '',
    });
    return listeners.filter((listener) => listener.type === type).length;
  };
  const found = {
    message: await count('window', 'message'),
    keydown: await count('document', 'keydown'),
  };
  await cdp.detach();
  return found;
}

test.describe('the embed script in a merchant shop', () => {
  test('loads from the app, pinned by its integrity hash, with CORS and a long cache', async ({
    page,
    request,
  }) => {
    const response = await request.get(SDK_URL, { headers: { origin: E2E.hostOrigin } });
    expect(response.headers()['access-control-allow-origin']).toBe('*');
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    // Its major's address follows the newest release: kept for minutes, not pinned.
    const alias = await request.get(SDK_ALIAS_URL);
    expect(alias.headers()['cache-control']).toBe('public, max-age=300');
    expect(await alias.body()).toEqual(await response.body());

    await page.goto(shopUrl(await createConsent(page.request, ORDER)));
    await expect(page.locator(`script[src="${SDK_URL}"]`)).toHaveAttribute(
      'integrity',
      sdkIntegrity(),
    );
    // A script refused by its hash or by CORS would define nothing.
    expect(await page.evaluate(() => typeof (window as { OyaConsent?: unknown }).OyaConsent)).toBe(
      'object',
    );
  });

  // The modal is the whole width at 390 px, and 480 px wide and centred at 1280 px. Its axe scan
  // is in accessibility.spec.ts.
  test(
    'opens the consent in a modal that Escape and the close button close',
    { tag: '@both-widths' },
    async ({ page }, testInfo) => {
      await page.goto(shopUrl(await createConsent(page.request, ORDER)));
      const pay = page.getByRole('button', { name: 'Pay with Oya' });
      await pay.click();

      const dialog = page.getByRole('dialog', { name: 'Consent request' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
      const frame = page.frameLocator('iframe[title="Consent request"]');
      await expect(frame.getByText(PENDING_TEXT)).toBeVisible();
      // The iframe takes the height the page asks for.
      await expect.poll(() => lastHeight(page, 'modal')).toBeGreaterThanOrEqual(200);
      const height = await lastHeight(page, 'modal');
      await expect(page.locator('iframe')).toHaveCSS('height', `${height}px`);
      expect((await shop(page)).events.map((e) => e.type)).toContain('loaded');
      // Centred, the window's width less its 16 px margins, at most 480 px.
      const width = page.viewportSize()?.width ?? 0;
      const box = await dialog.boundingBox();
      expect(box?.width).toBe(Math.min(480, width - 32));
      expect(box?.x).toBe((width - (box?.width ?? 0)) / 2);
      await snap(page, testInfo, 'sdk-modal');

      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(pay).toBeFocused();
      expect(await callbacks(page)).toEqual(['modal onClose dismissed']);

      const heardBefore = (await shop(page)).events.length;
      await pay.click();
      await expect(frame.getByText(PENDING_TEXT)).toBeVisible();
      // The modal is centred: it moves while the page reports its height, so the click waits
      // for the height this opening reported (a click during the move lands in the frame).
      await expect
        .poll(async () =>
          (await shop(page)).events
            .slice(heardBefore)
            .some((e) => e.embed === 'modal' && e.type === 'resized'),
        )
        .toBe(true);
      await expect(page.locator('iframe')).toHaveCSS(
        'height',
        `${await lastHeight(page, 'modal')}px`,
      );
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(page.locator('iframe')).toHaveCount(0);
      expect(await callbacks(page)).toEqual(['modal onClose dismissed', 'modal onClose dismissed']);
    },
  );

  test("Escape inside the page closes the modal as its close button does; with the page's own dialog open, only that dialog", async ({
    page,
  }) => {
    // The shop, the embed and the terminal's reader driver: past 30 s on a loaded machine.
    const payment = { type: 'immediate', amount: 250_000, narration: 'Order #2207 chip purchase' };
    await page.goto(shopUrl(await createConsent(page.request, { payments: [payment] })));
    const pay = page.getByRole('button', { name: 'Pay with Oya' });
    await pay.click();
    const dialog = page.getByRole('dialog', { name: 'Consent request' });
    const frame = page.frameLocator('iframe[title="Consent request"]');
    const method = frame.getByRole('button', { name: /Chip Card Terminal/ });
    await clickSettled(method);
    const terminal = frame.getByRole('dialog', { name: 'Chip Card Terminal' });
    await expect(terminal.getByRole('button', { name: 'Connect Card Reader' })).toBeEnabled();

    // The page's own dialog has the focus: Escape closes it alone.
    await page.keyboard.press('Escape');
    await expect(terminal).toHaveCount(0);
    await expect(method).toBeFocused();
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
    expect(await callbacks(page)).toEqual([]);

    // The page itself has the focus: Escape closes the merchant's modal, who hears it.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(pay).toBeFocused();
    expect(await callbacks(page)).toEqual(['modal onClose dismissed']);
    expect(await journey(page)).toEqual(['step immediate_payment', 'closed dismissed']);
  });

  test('opened from an origin the merchant did not register, reports failed ORIGIN_NOT_REGISTERED naming it, and closes', async ({
    page,
  }) => {
    const consentId = await createConsent(page.request, ORDER);
    await page.goto(shopUrl(consentId).replace(E2E.hostOrigin, E2E.strangerOrigin));
    await page.getByRole('button', { name: 'Pay with Oya' }).click();
    const message = `${E2E.strangerOrigin} is not a registered origin of client ${E2E.clientId}`;
    await expect
      .poll(() => callbacks(page))
      .toEqual([expect.stringContaining(`modal onFailure ${message}`), 'modal onClose failed']);
    const failed = (await shop(page)).events.find((e) => e.type === 'failed');
    expect(failed).toMatchObject({ code: 'ORIGIN_NOT_REGISTERED', consentId });
    expect((await shop(page)).events.map((e) => e.type)).toEqual(['failed', 'closed']);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect(page.getByRole('status')).toContainText('The consent failed:');
  });

  test('reports a granted consent, and closes on Complete & Close', async ({ page }) => {
    const consentId = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    await page.goto(shopUrl(consentId));
    await page.getByRole('button', { name: 'Pay with Oya' }).click();
    const frame = page.frameLocator('iframe');
    await expect(frame.getByText(GRANTED_TEXT)).toBeVisible();
    await expect.poll(() => callbacks(page)).toEqual([`modal onSuccess ${consentId}`]);
    await expect(page.getByRole('status')).toHaveText('Consent granted, thank you.');

    await clickSettled(frame.getByRole('button', { name: 'Complete & Close' }));
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await callbacks(page)).toEqual([
      `modal onSuccess ${consentId}`,
      'modal onClose completed',
    ]);
  });

  test('shows the consent inline in a container, at the height the page asks', async ({
    page,
  }, testInfo) => {
    await page.goto(shopUrl(await createConsent(page.request, ORDER)));
    await page.getByRole('button', { name: 'Pay on this page' }).click();
    const checkout = page.getByRole('region', { name: 'Checkout', exact: true });
    await expect(checkout.frameLocator('iframe').getByText(PENDING_TEXT)).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect.poll(() => lastHeight(page, 'inline')).toBeGreaterThanOrEqual(200);
    await expect(checkout.locator('iframe')).toHaveCSS(
      'height',
      `${await lastHeight(page, 'inline')}px`,
    );
    await snap(page, testInfo, 'sdk-inline');
  });

  test('runs two embeds on one page, each hearing only its own page', async ({
    page,
  }, testInfo) => {
    const granted = await createConsent(page.request, GRANTED_CONSENT_BODY, {
      idempotencyKey: GRANTED_CONSENT_KEY,
    });
    const pending = await createConsent(page.request, ORDER);
    await page.goto(shopUrl(granted, pending));
    await page.getByRole('button', { name: 'Pay two orders' }).click();
    const first = page.getByRole('region', { name: 'Checkout', exact: true });
    const second = page.getByRole('region', { name: 'Second checkout' });
    await expect(first.frameLocator('iframe').getByText(GRANTED_TEXT)).toBeVisible();
    await expect(second.frameLocator('iframe').getByText(PENDING_TEXT)).toBeVisible();

    // Only the granted consent's embed reports a success.
    await expect.poll(() => callbacks(page)).toEqual([`first onSuccess ${granted}`]);
    for (const [name, region] of [
      ['first', first],
      ['second', second],
    ] as const) {
      await expect.poll(() => lastHeight(page, name)).toBeGreaterThanOrEqual(200);
      await expect(region.locator('iframe')).toHaveCSS(
        'height',
        `${await lastHeight(page, name)}px`,
      );
    }
    await snap(page, testInfo, 'sdk-two-embeds');

    // Completing the first closes it alone; the second stays and keeps resizing.
    await first.frameLocator('iframe').getByRole('button', { name: 'Complete & Close' }).click();
    await expect(first.locator('iframe')).toHaveCount(0);
    await expect(second.frameLocator('iframe').getByText(PENDING_TEXT)).toBeVisible();
    expect(await callbacks(page)).toEqual([
      `first onSuccess ${granted}`,
      'first onClose completed',
    ]);
    expect(
      await page.evaluate(() => (window as unknown as { shop: TShop }).shop.embeds[1]?.isOpen),
    ).toBe(true);
  });

  test('destroy() leaves no iframe, node or listener behind, and a second load changes nothing', async ({
    page,
  }) => {
    await page.goto(shopUrl(await createConsent(page.request, ORDER)));
    const body = await page.evaluate(() => document.body.innerHTML);
    expect(await scriptListeners(page)).toEqual({ message: 0, keydown: 0 });
    await page.getByRole('button', { name: 'Pay on this page' }).click();
    await page.getByRole('button', { name: 'Pay with Oya' }).click();
    await expect(page.locator('iframe')).toHaveCount(2);
    // One message listener per embed; the modal's Escape on document.
    expect(await scriptListeners(page)).toEqual({ message: 2, keydown: 1 });

    // The script again, as a single-page app that mounts it twice would: the first stays.
    const reloaded = await page.evaluate(
      ([src, integrity]) =>
        new Promise<boolean>((resolve, reject) => {
          const kept = (window as { OyaConsent?: unknown }).OyaConsent;
          const script = document.createElement('script');
          Object.assign(script, { src, integrity, crossOrigin: 'anonymous' });
          script.nonce = document.querySelector('script')?.nonce ?? '';
          script.onload = () => {
            resolve((window as { OyaConsent?: unknown }).OyaConsent === kept);
            script.remove();
          };
          script.onerror = reject;
          document.head.append(script);
        }),
      [SDK_URL, sdkIntegrity()],
    );
    expect(reloaded).toBe(true);

    await page.evaluate(() => {
      for (const embed of (window as unknown as { shop: TShop }).shop.embeds) embed.destroy();
    });
    await expect(page.locator('iframe')).toHaveCount(0);
    expect(await scriptListeners(page)).toEqual({ message: 0, keydown: 0 });
    expect(await page.evaluate(() => document.body.innerHTML)).toBe(body);
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
    expect(await callbacks(page)).toEqual([]);
  });

  test('tells the step, the card payment started and completed, then the grant', async ({
    page,
  }) => {
    // The 3 s between the payment and its success, and the grant: past 30 s on a loaded machine.
    const payment = { type: 'immediate', amount: 250_000, narration: 'Order #1042 groceries' };
    const consentId = await createConsent(page.request, { payments: [payment] });
    await page.goto(shopUrl(consentId));
    await page.getByRole('button', { name: 'Pay with Oya' }).click();
    const frame = page.frameLocator('iframe');
    await clickSettled(frame.getByRole('button', { name: /Pay with Card/ }));
    const card = SANDBOX_CARDS.find((c) => c.scenario === 'pin_only');
    if (!card) throw new Error('no pin_only sandbox card');
    await frame.getByLabel('Card Number').fill(card.number);
    await frame.getByLabel('Expiry date').fill(card.expiry);
    await frame.getByLabel('CVV').fill(card.cvv);
    await clickSettled(frame.getByRole('button', { name: 'Continue to PIN' }));
    await frame.getByLabel('Card PIN').fill(card.pin);
    await clickSettled(frame.getByRole('button', { name: 'Complete Payment' }));

    await expect.poll(() => callbacks(page)).toEqual([`modal onSuccess ${consentId}`]);
    expect(await journey(page)).toEqual([
      'step immediate_payment',
      'payment started card',
      'payment completed card',
      'granted',
    ]);
    const paymentIds = (await shop(page)).events.flatMap((e) => (e.paymentId ? [e.paymentId] : []));
    expect(new Set(paymentIds).size).toBe(1);
    expect((await shop(page)).events.every((e) => !e.consentId || e.consentId === consentId)).toBe(
      true,
    );
  });

  test('tells the form step, then the decline, then the failure that closes the embed', async ({
    page,
  }) => {
    // A sign-up, a form and the decline: past 30 s on a loaded machine.
    const session = await signedUpSession(page);
    const formId = await createForm(page.request, DELIVERY_FORM);
    const consentId = await createConsent(page.request, { formId });
    await page.goto(shopUrl(consentId));
    await page.getByRole('button', { name: 'Pay with Oya' }).click();
    const frame = page.frameLocator('iframe');
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    // Signed in elsewhere: the merchant's page tells the embedded page (spec §7).
    await storeInFrame(page, session);
    await page.evaluate((appOrigin) => {
      document
        .querySelector<HTMLIFrameElement>('iframe')
        ?.contentWindow?.postMessage({ type: 'authentication-updated' }, appOrigin);
    }, E2E.appOrigin);

    await frame.getByLabel('Street').fill('12 Admiralty Way, Lekki');
    await clickSettled(frame.getByRole('button', { name: 'Next Step' }));
    await clickSettled(frame.getByRole('button', { name: 'Decline' }));

    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await callbacks(page)).toEqual([
      `modal onDecline ${consentId}`,
      'modal onFailure Consent was rejected by user',
      'modal onClose failed',
    ]);
    expect(await journey(page)).toEqual(['step form', 'declined', 'failed', 'closed failed']);
  });
});
