import { test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { E2E, SNAP } from './e2e-env';

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

/** Creates a consent through the merchant API, as a merchant's server would. */
export async function createConsent(
  request: APIRequestContext,
  body: object,
  options: { idempotencyKey?: string; clientId?: string; secret?: string } = {},
): Promise<string> {
  const response = await request.post(`${E2E.appOrigin}/api/v1/consents`, {
    headers: {
      authorization: basic(options.clientId ?? E2E.clientId, options.secret ?? E2E.clientSecret),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    data: body,
  });
  if (!response.ok()) throw new Error(`consent creation failed: ${await response.text()}`);
  return (await response.json()).consentId;
}

/** A consent as its merchant reads it through the merchant API (origins whole). */
export async function readMerchantConsent(request: APIRequestContext, consentId: string) {
  const response = await request.get(`${E2E.appOrigin}/api/v1/consents/${consentId}`, {
    headers: { authorization: basic(E2E.clientId, E2E.clientSecret) },
  });
  if (!response.ok()) throw new Error(`merchant read failed: ${await response.text()}`);
  return (await response.json()).consent;
}

/** Creates a form through the merchant API; its formId. */
export async function createForm(request: APIRequestContext, body: object): Promise<string> {
  const response = await request.post(`${E2E.appOrigin}/api/v1/forms`, {
    headers: { authorization: basic(E2E.clientId, E2E.clientSecret) },
    data: body,
  });
  if (response.status() !== 201) throw new Error(`form creation failed: ${await response.text()}`);
  return ((await response.json()) as { formId: string }).formId;
}

/** A form of one required field, 'Street': a consent with it alone is answered by Decline. */
export const DELIVERY_FORM = {
  title: 'Delivery details',
  sections: [
    {
      id: 'where',
      title: 'Where to deliver',
      fields: [{ id: 'street', kind: 'short_text', label: 'Street', required: true }],
    },
  ],
};

export const consentPath = (consentId: string, query = '') =>
  `/r/${consentId}?clientId=${E2E.clientId}${query ? `&${query}` : ''}`;

/**
 * The consent page as its scripts draw it: with its clientId given twice the server draws no
 * first screen (src/server/routes/pages.ts), and the page reads the consent itself, by the first.
 * For what the page shows while it reads, or when its read fails.
 */
export const consentPathReadByPage = (consentId: string) =>
  `/r/${consentId}?clientId=${E2E.clientId}&clientId=${E2E.clientId}`;

/**
 * Waits until the page's scripts have taken over the screen the server drew: React marks each
 * element it has with a `__reactProps$…` key. Before, the page shows the consent but has not read
 * its session yet, and a click is held for it (src/server/routes/pages.ts).
 */
export async function takenOver(target: Pick<Page, 'waitForFunction'>) {
  await target.waitForFunction(() =>
    Object.keys(document.querySelector('main button') ?? {}).some((key) =>
      key.startsWith('__reactProps$'),
    ),
  );
}

/**
 * Waits until the consent page shows the screen for the payer's stored session (the page marks
 * the document, src/web/page-settled.ts): a signed-in payer's screen is drawn again once their
 * session is read. A journey that starts there taps what it will go on with; a tap made before
 * is held and given (src/server/routes/pages.ts), which consent-page.spec.ts tests on its own.
 */
export async function settledPage(page: Pick<Page, 'waitForFunction'>) {
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-page-settled'));
}

/** The merchant page of another origin, embedding the consent page. */
export const embedHostUrl = (path: string, origin: string = E2E.hostOrigin) =>
  `${origin}/?src=${encodeURIComponent(`${E2E.appOrigin}${path}`)}`;

/**
 * Prints, when a test of this file fails, what each of the page's frames showed: a failure's
 * error-context.md (printed by .ci/run) holds the page's tree, but an iframe there is a bare
 * `- iframe`, and the consent page embedded in it is what the test was waiting on.
 */
export function printFramesOnFailure() {
  test.afterEach(async ({ page }, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) return;
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const tree = await frame
        .locator('body')
        .ariaSnapshot({ timeout: 5_000 })
        .catch((error: unknown) => `(not read: ${String(error)})`);
      console.log(`[frame ${frame.url()}]\n${tree}`);
    }
  });
}

export type TReceived = { origin: string; data: { type: string; [key: string]: unknown } };

export const receivedMessages = (page: Page) =>
  page.evaluate(() => (window as unknown as { received: TReceived[] }).received);

/**
 * With SNAP=1, saves a full-page screenshot of the screen as screenshots/{project}-{name}.png
 * (mobile: 390 px, desktop: 1280 px) to look at. Otherwise it does nothing: full-page shots are
 * slow, and a run that only checks looks at none of them.
 */
export async function snap(page: Page, testInfo: TestInfo, name: string) {
  if (!SNAP) return;
  await page.screenshot({
    path: `screenshots/${testInfo.project.name}-${name}.png`,
    fullPage: true,
  });
}

/** The demo shop of another origin, which opens consents with the embed script (shop-page.ts). */
export const shopUrl = (consentId: string, second?: string) =>
  `${E2E.hostOrigin}/shop?consent=${consentId}${second ? `&second=${second}` : ''}`;
