import { expect, test } from '@playwright/test';
import { expectNoViolations } from './axe';
import { signedUpSession, storeInFrame } from './auth-support';
import { E2E } from './e2e-env';
import {
  consentPath,
  createConsent,
  createForm,
  DELIVERY_FORM,
  embedHostUrl,
  printFramesOnFailure,
  receivedMessages,
  snap,
  takenOver,
} from './merchant';

// The consent page inside a merchant's iframe, in real Chromium against the real server: the
// parent's authentication-updated message (spec §6, §7), and Decline (spec §4) telling the parent.

printFramesOnFailure();

test.describe('embedded in a merchant page', () => {
  test("the parent's authentication-updated message signs the page in; the frame's own does not", async ({
    page,
  }, testInfo) => {
    const session = await signedUpSession(page);
    const consentId = await createConsent(page.request, {
      dataSharing: { bvnData: true },
      requirements: { requiresAuth: true },
    });
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    // The page reads its session as it takes the screen over: stored before, it would be read.
    const consentFrame = page.frame({ url: (url) => url.origin === E2E.appOrigin });
    if (!consentFrame) throw new Error('no consent frame');
    await takenOver(consentFrame);
    const inner = await storeInFrame(page, session);

    // The same message from the frame itself is not the parent's: nothing changes. The page
    // reads a message with a module it loads at the first one (a parent's message, ignored here,
    // loads it); a message it took for the parent's would have been read by the time the same
    // module, imported again after the frame's own message reached every listener, answers.
    await page.evaluate((appOrigin) => {
      const iframe = document.querySelector<HTMLIFrameElement>('#consent');
      iframe?.contentWindow?.postMessage({ type: 'attest-height-update', height: 0 }, appOrigin);
    }, E2E.appOrigin);
    const readerModule = () =>
      inner.evaluate(
        () =>
          performance
            .getEntriesByType('resource')
            .map((entry) => entry.name)
            .find((name) => /\/assets\/parent-messages-[\w-]+\.js$/.test(name)) ?? null,
      );
    await expect.poll(readerModule).not.toBeNull();
    const reader = await readerModule();
    await inner.evaluate(async (module) => {
      const heard = new Promise<void>((done) => {
        const own = (event: MessageEvent) => {
          if (event.source !== window) return;
          window.removeEventListener('message', own);
          done();
        };
        window.addEventListener('message', own);
      });
      window.postMessage({ type: 'authentication-updated' }, '*');
      await heard;
      await import(/* @vite-ignore */ module ?? '');
      await new Promise<void>((drawn) => requestAnimationFrame(() => drawn()));
    }, reader);
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    await expect(frame.getByText('1 data point being shared')).toHaveCount(0);

    await page.evaluate((appOrigin) => {
      const iframe = document.querySelector<HTMLIFrameElement>('#consent');
      iframe?.contentWindow?.postMessage({ type: 'authentication-updated' }, appOrigin);
    }, E2E.appOrigin);
    // Signed in: the consent flow's one step, data sharing, with its 'Confirm'.
    await expect(frame.getByText('1 data point being shared')).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toHaveCount(0);
    // The Data Sharing step, scanned in consent-flow.spec.ts.
    await snap(page, testInfo, 'embedded-authentication-updated');
  });

  test('a form alone: Next Step right after typing, then Decline tells the parent', async ({
    page,
  }, testInfo) => {
    // A sign-up, a form saved, a screenshot and an axe pass, the decline: past 30 s when loaded.
    const session = await signedUpSession(page);
    const formId = await createForm(page.request, DELIVERY_FORM);
    const consentId = await createConsent(page.request, { formId });
    await page.goto(embedHostUrl(consentPath(consentId, 'embed=true')));
    const frame = page.frameLocator('#consent');
    await expect(frame.getByRole('button', { name: 'Authenticate' })).toBeVisible();
    await storeInFrame(page, session);
    await page.reload();

    // The press on 'Next Step' is what takes the focus from the field, and starts its save:
    // the button must still be where the pointer is when the press ends.
    await frame.getByLabel('Street').fill('12 Admiralty Way, Lekki');
    await frame.getByRole('button', { name: 'Next Step' }).click();
    await expect(frame.getByRole('button', { name: 'Consent', exact: true })).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Decline' })).toHaveCount(1);
    // The step is answered by 'Consent' or 'Decline' now: its own 'Next Step' is gone.
    await expect(frame.getByRole('button', { name: 'Next Step' })).toHaveCount(0);
    await snap(page, testInfo, 'flow-form-only-consent-or-decline');
    await expectNoViolations(page);
    await frame.getByRole('button', { name: 'Decline' }).click();

    await expect
      .poll(async () => (await receivedMessages(page)).map((m) => m.data))
      .toContainEqual({
        type: 'oya-money-consent-failed',
        consentId,
        error: 'Consent was rejected by user',
      });
    const read = await page.request.get(`/api/consent/${consentId}?clientId=${E2E.clientId}`);
    expect(((await read.json()) as { consent: { status: string } }).consent.status).toBe(
      'declined',
    );
    // The frame reads the consent again: declined, with nothing left to grant.
    await expect(frame.getByRole('heading', { name: 'Consent Declined' })).toBeVisible();
    await expect(
      frame.getByText(/^You declined this request from .+\. Nothing was granted/),
    ).toBeVisible();
    await snap(page, testInfo, 'embedded-declined');
    await expectNoViolations(page);
  });
});
