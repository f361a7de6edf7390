import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectNoViolations } from './axe';
import {
  addVirtualAuthenticator,
  latestCode,
  signUpThroughPanel,
  uniquePhone,
} from './auth-support';
import { E2E } from './e2e-env';
import { snap } from './merchant';

// A lost phone (docs/identity.md "When a passkey is trusted"), in real Chromium against the real
// server: a payer signs up with a passkey on one phone, loses it, signs in on another with an SMS
// code and creates a passkey there without the old one's approval. The page says from when it may
// approve payments, the payer's number is told, and on their own page ('Your devices') the payer
// finds both passkeys and asks to remove the lost one, by keyboard: signed in by a code alone,
// the removal is scheduled 24 h on, and the SMS's link cancels it, signed in or not, on a press.

async function look(page: Page, testInfo: TestInfo, name: string) {
  await snap(page, testInfo, `payer-devices-${name}`);
  await expectNoViolations(page);
}

test("a passkey added after an SMS code waits 24 h, and the lost one's removal waits 24 h with a cancel link", async ({
  page,
  browser,
}, testInfo) => {
  const phone = uniquePhone();
  const lost = await addVirtualAuthenticator(page);
  await page.goto('/login');
  await signUpThroughPanel(page, page.request, { fullName: 'Tunde Bello', phone });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();

  // The phone is lost; on another, a code signs the payer in and a passkey is made there.
  await lost.cdp.send('WebAuthn.removeVirtualAuthenticator', {
    authenticatorId: lost.authenticatorId,
  });
  await addVirtualAuthenticator(page);
  await page.getByRole('button', { name: 'Use a code sent by SMS instead' }).click();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code is read once the page says it was sent: an earlier one may be the latest yet.
  await expect(page.getByText(/We sent a 6-digit code to/)).toBeVisible();
  await page.getByLabel('6-digit code').fill(await latestCode(page.request, phone));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.getByRole('button', { name: 'Create passkey' }).click();

  // The old passkey could approve it; it is not here, so the payer goes on without.
  const approve = page.getByRole('heading', { name: 'Approve your new passkey' });
  await expect(approve).toBeFocused();
  await look(page, testInfo, 'approve');
  await page.getByRole('button', { name: 'Continue without approval' }).click();
  await expect(page.getByRole('heading', { name: 'Passkey created' })).toBeFocused();
  await expect(
    page.getByText(/it can approve payments and mandates from \d+ \w+ \d{4}, /),
  ).toBeVisible();
  await look(page, testInfo, 'waiting');
  const outbox = await page.request.get(
    `${E2E.appOrigin}/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  );
  const [latest] = ((await outbox.json()) as { messages: Array<{ body: string }> }).messages;
  expect(latest?.body).toMatch(/^A new device was added to your Oya Money account on /);
  expect(latest?.body).toContain('/consents#devices');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  // The payer's page lists both passkeys: the lost one may approve, the new one not yet.
  await page.goto('/consents#devices');
  const devices = page.getByRole('region', { name: 'Your devices' });
  const items = devices.getByRole('article');
  await expect(items).toHaveCount(2);
  const trusted = items.filter({ hasNotText: 'Can approve payments from' });
  const waiting = items.filter({ hasText: /Can approve payments from / });
  await expect(waiting).toHaveCount(1);
  await expect(trusted).toHaveCount(1);
  await expect(trusted).toContainText('Can approve payments');
  await look(page, testInfo, 'list');

  // Remove the lost one, by keyboard: Escape keeps it and gives focus back.
  const remove = trusted.getByRole('button', { name: /^Remove the passkey added / });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await expect(dialog).toContainText('will no longer sign you in or approve payments');
  await expect(dialog.getByRole('button', { name: 'Keep passkey' })).toBeFocused();
  await look(page, testInfo, 'dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Remove passkey' })).toBeFocused();
  await page.keyboard.press('Enter');
  // Signed in by a code alone, the payer cannot take a trusted passkey away at once (a SIM swap
  // could): its removal waits 24 h, and the payer's number gets a link to cancel it.
  await expect(devices.getByRole('status')).toHaveText(
    /^Removal scheduled for \d+ \w+ \d{4}, .+ You signed in with a code sent by SMS, so the passkey goes in 24 hours; we sent you a text with a link to cancel it\.$/,
  );
  await expect(devices.getByRole('status')).toBeFocused();
  await expect(items).toHaveCount(2);
  await expect(trusted).toContainText(/Removal scheduled for \d+ \w+ \d{4}, /);
  await expect(
    trusted.getByRole('button', { name: /^Cancel removal of the passkey added / }),
  ).toBeVisible();
  await look(page, testInfo, 'removal-scheduled');

  // The SMS's link cancels it on its own, in a browser where the payer is not signed in, and
  // only when its button is pressed: opening it (a link previewer does) changes nothing.
  const sent = await page.request.get(
    `${E2E.appOrigin}/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  );
  const [notice] = ((await sent.json()) as { messages: Array<{ body: string }> }).messages;
  expect(notice?.body).toMatch(/^A passkey is to be removed from your Oya Money account on /);
  const link = /(http\S+cancelRemoval=[\w-]+#devices)$/.exec(notice?.body ?? '')?.[1] ?? '';
  const elsewhere = await browser.newContext({ viewport: page.viewportSize() });
  const signedOut = await elsewhere.newPage();
  await signedOut.goto(`${E2E.appOrigin}${link.replace(/^https?:\/\/[^/]+/, '')}`);
  const panel = signedOut.getByRole('region', { name: 'Cancel a passkey removal' });
  await expect(panel).toContainText('asked to remove a passkey from your account');
  const cancel = panel.getByRole('button', { name: 'Cancel removal' });
  await expect(cancel).toBeVisible();
  await look(signedOut, testInfo, 'cancel-link');
  // Opened, not pressed: the payer's own list, read again, still shows the removal.
  await page.reload();
  await expect(trusted).toContainText(/Removal scheduled for \d+ \w+ \d{4}, /);

  await cancel.focus();
  await signedOut.keyboard.press('Enter');
  const done = panel.getByRole('status');
  await expect(done).toHaveText('Removal cancelled. Your passkey stays on your account.');
  await expect(done).toBeFocused();
  await expect(panel.getByRole('link', { name: 'Go to your account' })).toBeVisible();
  await look(signedOut, testInfo, 'cancel-link-done');
  await elsewhere.close();

  await page.reload();
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'Removal scheduled for' })).toHaveCount(0);
  await expect(trusted.getByRole('button', { name: /^Remove the passkey added / })).toBeVisible();
  await look(page, testInfo, 'removal-cancelled');
});

test('the payer changes their sign-in number by keyboard, on a code sent to the new number', async ({
  page,
}, testInfo) => {
  const phone = uniquePhone();
  let next = uniquePhone();
  while (next === phone) next = uniquePhone();
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  // Sign-up makes the payer's first passkey, which proves the session: the change needs it.
  await signUpThroughPanel(page, page.request, { fullName: 'Ngozi Eze', phone });
  await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();

  await page.goto('/consents');
  const section = page.getByRole('region', { name: 'Your sign-in number' });
  const shown = (national: string) =>
    `Codes sent by SMS go to ${national.slice(0, 4)} ${national.slice(4, 7)} ${national.slice(7)}.`;
  await expect(section).toContainText(shown(phone));
  await look(page, testInfo, 'phone');

  await section.getByRole('button', { name: 'Change number' }).focus();
  await page.keyboard.press('Enter');
  await expect(section.getByLabel('New phone number')).toBeFocused();
  await page.keyboard.type(next);
  await page.keyboard.press('Enter');
  await expect(section.getByText(/^We sent a 6-digit code to 0803 /)).toBeVisible();
  const codeField = section.getByLabel('6-digit code');
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await look(page, testInfo, 'phone-code');
  await page.keyboard.type(await latestCode(page.request, next));
  await page.keyboard.press('Enter');

  const done = section.getByRole('status').filter({ hasText: 'You now sign in with' });
  await expect(done).toHaveText(
    `You now sign in with ${shown(next).replace('Codes sent by SMS go to ', '').replace(/\.$/, '')}. We told your old number.`,
  );
  await expect(done).toBeFocused();
  await expect(section).toContainText(shown(next));
  await look(page, testInfo, 'phone-changed');

  const outbox = await page.request.get(
    `${E2E.appOrigin}/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
  );
  const [notice] = ((await outbox.json()) as { messages: Array<{ body: string }> }).messages;
  expect(notice?.body).toMatch(
    /^The sign-in number of your Oya Money account was changed from this number to 0803 \*\*\* \*\*\d\d on /,
  );
});
