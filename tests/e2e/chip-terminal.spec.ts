import { chromium, expect, test, type CDPSession, type Locator, type Page } from '@playwright/test';
import {
  READER_GATT,
  createReaderFrameDecoder,
  doTradeCommand,
} from '../../src/domain/chip-reader-protocol';
import { SANDBOX_CHIP_CARDS } from '../../src/server/sandbox/fixtures';
import { expectNoViolations } from './axe';
import { CHROMIUM } from './e2e-env';
import { consentPath, createConsent, shopUrl, snap } from './merchant';

// The Chip Card Terminal (docs/terminal.md), in real Chromium against the real server: every path
// of the sandbox reader (the server's twin of a reader, and its sandbox acquirer), and the Web
// Bluetooth transport against a peripheral emulated by Chromium's BluetoothEmulation domain.

const payment = { type: 'immediate', amount: 250_000, narration: 'Order #2207 chip purchase' };
const NEEDS_READER = 'Not connected to device. Connect Card Reader to start a transaction.';
type TScenario = (typeof SANDBOX_CHIP_CARDS)[number]['scenario'];

function chipCard(scenario: TScenario) {
  const found = SANDBOX_CHIP_CARDS.find((c) => c.scenario === scenario);
  if (!found) throw new Error(`No chip card for ${scenario}`);
  return found;
}

const terminal = (page: Page) => page.getByRole('dialog', { name: 'Chip Card Terminal' });
const fact = (dialog: Locator, name: string) =>
  dialog.locator('dl > div').filter({ hasText: name }).locator('dd');

/** A fresh payment-only consent, its Immediate Payment step, and the terminal opened. */
async function openTerminal(page: Page) {
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(consentPath(consentId));
  await page.getByRole('button', { name: /Chip Card Terminal/ }).click();
  const dialog = terminal(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Connect Card Reader' })).toBeEnabled();
  return dialog;
}

async function connectSandboxReader(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
  await expect(fact(dialog, 'Connection')).toHaveText('Connected');
}

/** Starts a trade, inserts the card with the faults asked, and types the PIN on the keypad. */
async function insertAndPay(
  dialog: Locator,
  scenario: TScenario,
  options: { pin?: string; faults?: readonly ('Reader is busy' | 'PIN entry times out')[] } = {},
) {
  const card = chipCard(scenario);
  await dialog.getByRole('button', { name: 'Start Chip Card Transaction' }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('Waiting for card');
  await dialog.getByLabel('Chip test card').selectOption(card.number);
  for (const fault of options.faults ?? []) await dialog.getByLabel(fault).check();
  await dialog.getByRole('button', { name: 'Insert Card' }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('PIN entry');
  for (const digit of options.pin ?? card.pin) {
    await dialog.getByRole('button', { name: digit, exact: true }).click();
  }
  await dialog.getByRole('button', { name: 'Enter', exact: true }).click();
}

test.describe('chip card terminal: the sandbox reader', () => {
  test('approved: the chip purchase pays the payment and the consent is granted', async ({
    page,
  }, testInfo) => {
    // Screenshots and axe passes of every state, the 3 s completion delay and the grant.
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    const consentId = await createConsent(page.request, { payments: [payment] });
    await page.goto(consentPath(consentId));
    const method = page.getByRole('button', { name: /Chip Card Terminal/ });
    await expect(method).toContainText('Bluetooth EMV reader');
    await method.click();
    const dialog = terminal(page);
    await expect(dialog.getByRole('button', { name: 'Connect Card Reader' })).toBeEnabled();
    await expect(dialog.getByRole('heading', { name: 'Chip Card Terminal' })).toBeVisible();
    await expect(fact(dialog, 'Amount')).toHaveText('₦2,500.00');
    await expect(fact(dialog, 'Connection')).toHaveText('Disconnected');
    await expect(fact(dialog, 'Transaction state')).toHaveText('Idle');
    await expect(dialog.getByText('Not connected', { exact: true })).toBeVisible();
    // Focus moved into the modal.
    expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await snap(page, testInfo, 'terminal-disconnected');
    await expectNoViolations(page);

    // spec §5: no transaction without a connected reader. Start says why, and the line that
    // says it is read aloud.
    const start = dialog.getByRole('button', { name: 'Start Chip Card Transaction' });
    await expect(start).toBeDisabled();
    await expect(start).toHaveAccessibleDescription(NEEDS_READER);
    await expect(dialog.getByRole('status')).toHaveText(NEEDS_READER);
    await snap(page, testInfo, 'terminal-not-connected');

    await connectSandboxReader(dialog);
    await expect(dialog.getByText('Ready', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(start).toBeEnabled();
    await expect(start).toHaveAccessibleDescription('');
    await snap(page, testInfo, 'terminal-connected');
    await expectNoViolations(page);

    const card = chipCard('chip_approved');
    await dialog.getByRole('button', { name: 'Start Chip Card Transaction' }).click();
    await expect(fact(dialog, 'Transaction state')).toHaveText('Waiting for card');
    await expect(dialog.getByRole('status')).toHaveText('Insert the chip card into the reader.');
    await snap(page, testInfo, 'terminal-waiting-for-card');
    await expectNoViolations(page);
    await dialog.getByLabel('Chip test card').selectOption(card.number);
    await dialog.getByRole('button', { name: 'Insert Card' }).click();
    await expect(fact(dialog, 'Transaction state')).toHaveText('Card detected');
    await snap(page, testInfo, 'terminal-card-detected');
    await expect(fact(dialog, 'Transaction state')).toHaveText('PIN entry');
    for (const digit of card.pin) {
      await dialog.getByRole('button', { name: digit, exact: true }).click();
    }
    await expect(dialog.getByLabel('4 PIN digits entered')).toHaveText('••••');
    await snap(page, testInfo, 'terminal-pin-entry');
    await expectNoViolations(page);

    // The purchase is held on its way until its state has been seen, then sent on as it is
    // (not answered here).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/card-terminal/raven/chip-purchase', async (route) => {
      await released;
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Enter', exact: true }).click();
    await expect(fact(dialog, 'Transaction state')).toHaveText('Online processing');
    await snap(page, testInfo, 'terminal-online-processing');
    release();
    await expect(fact(dialog, 'Transaction state')).toHaveText('Completed');
    await expect(dialog.getByText('Approved', { exact: true })).toBeVisible();
    // The payment's stream completes it like a card payment: behind the modal, for the 3 s
    // before the grant (spec §9), the processing view says so with the masked card.
    await expect(page.getByText('✓ Payment Successful')).toBeVisible();
    // The payer's own view shows a card by its last 4 digits only.
    await expect(page.getByText(/\*{4} \*{4} \*{4} 1006/)).toBeVisible();
    await expect(page.getByText(/539983/)).toHaveCount(0);
    await snap(page, testInfo, 'terminal-completed');
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
    for (const line of logged) {
      expect(line).not.toContain(card.number);
    }
  });

  // One refusal at the reader here and one at the issuer below (wrong PIN) show the Failed state;
  // every other reason is the server's and the reducer's to test: the issuer's refusals in
  // src/server/routes/card-terminal.test.ts ('%s (PIN %s): 402 "%s", the attempt failed and
  // nothing booked'), the reader's faults in src/server/sandbox/routes/sandbox-terminal.test.ts ('%j: %i
  // %s') and src/domain/chip-terminal.test.ts ('sandboxReaderOutcome').
  test("a busy reader: 'Device is busy, please wait', and the payment is still due", async ({
    page,
  }, testInfo) => {
    const dialog = await openTerminal(page);
    await connectSandboxReader(dialog);
    await insertAndPay(dialog, 'chip_approved', { faults: ['Reader is busy'] });
    await expect(dialog.getByRole('alert')).toHaveText('Device is busy, please wait');
    await expect(fact(dialog, 'Transaction state')).toHaveText('Failed');
    await expect(dialog.getByText('Failed', { exact: true }).first()).toBeVisible();
    await snap(page, testInfo, 'terminal-failed');
    await expectNoViolations(page);
    // The payment is not paid: the step still asks for it.
    await expect(page.getByText('₦2,500.00 due now')).toBeVisible();
  });

  test('wrong PIN: declined, then Start again at once and the right PIN pays', async ({
    page,
  }, testInfo) => {
    // The sandbox's fixtures answer only after Connect is pressed: Connect waits for them.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sandbox/fixtures', async (route) => {
      await released;
      await route.continue();
    });
    const dialog = await openTerminal(page);
    await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
    release();
    await expect(fact(dialog, 'Connection')).toHaveText('Connected');
    await insertAndPay(dialog, 'chip_approved', { pin: '0000' });
    await expect(dialog.getByRole('alert')).toHaveText(
      'Transaction declined by card or issuer: Incorrect PIN',
    );
    // The way forward is the first button, and the line under the state names it.
    await expect(dialog.getByRole('button', { name: 'Start Chip Card Transaction' })).toBeEnabled();
    await expect(dialog.getByRole('status')).toHaveText(
      'Start Chip Card Transaction to try again.',
    );
    await snap(page, testInfo, 'terminal-declined');
    // A new read, a new rrn, without Reset Transaction: the second purchase is approved.
    await insertAndPay(dialog, 'chip_approved');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(fact(dialog, 'Transaction state')).toHaveText('Completed');
    await expect(page.getByRole('heading', { name: 'Consent Granted' })).toBeVisible();
  });

  test('Reset Device: the DEVICE_RESET it reports is expected, not a failure; Disconnect; Escape gives focus back', async ({
    page,
  }) => {
    const dialog = await openTerminal(page);
    await connectSandboxReader(dialog);
    await dialog.getByRole('button', { name: 'Start Chip Card Transaction' }).click();
    await expect(fact(dialog, 'Transaction state')).toHaveText('Waiting for card');
    await dialog.getByRole('button', { name: 'Reset Device' }).click();
    await expect(fact(dialog, 'Transaction state')).toHaveText('Idle');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(dialog.getByText('Ready', { exact: true })).toBeVisible();

    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect(fact(dialog, 'Connection')).toHaveText('Disconnected');
    await expect(dialog.getByRole('button', { name: 'Connect Card Reader' })).toBeEnabled();

    // Tab stays inside the modal: each press lands on one of its controls, or past the last one
    // on the browser's own controls (the document then has none focused, its body), never on the
    // page behind it.
    const landed: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      landed.push(
        await dialog.evaluate((node) => {
          const focused = document.activeElement;
          if (focused === document.body) return 'browser';
          return node.contains(focused) ? 'modal' : `page: ${focused?.outerHTML.slice(0, 80)}`;
        }),
      );
    }
    expect(landed.filter((where) => where !== 'modal' && where !== 'browser')).toEqual([]);
    expect(landed).toContain('modal');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: /Chip Card Terminal/ })).toBeFocused();
  });

  test("'Failed to load QPOS SDK' once the reader driver fails to load 6 times", async ({
    page,
  }, testInfo) => {
    const consentId = await createConsent(page.request, { payments: [payment] });
    let tries = 0;
    // The first try is held until the test has seen (and shot) the loading state it shows.
    let release!: () => void;
    const seen = new Promise<void>((done) => {
      release = done;
    });
    await page.route('**/assets/reader-driver-*.js', async (route) => {
      tries += 1;
      if (tries === 1) await seen;
      await route.abort();
    });
    await page.goto(consentPath(consentId));
    await page.getByRole('button', { name: /Chip Card Terminal/ }).click();
    const dialog = terminal(page);
    await expect(dialog.getByRole('button', { name: 'Loading SDK...' })).toBeDisabled();
    await snap(page, testInfo, 'terminal-loading-sdk');
    release();
    await expect(dialog.getByRole('alert')).toHaveText('Failed to load QPOS SDK');
    await expect(fact(dialog, 'Connection')).toHaveText('SDK unavailable');
    expect(tries).toBeGreaterThanOrEqual(1);
    await snap(page, testInfo, 'terminal-sdk-failed');
    await expectNoViolations(page);
  });
});

// ---- In the merchant's modal (the embed script) ---------------------------------------------

/** A control's box lies whole inside another's (the iframe's, the window's). */
async function expectInside(
  inner: Locator,
  outer: { x: number; y: number; width: number; height: number },
) {
  const box = await inner.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.y).toBeGreaterThanOrEqual(outer.y - 1);
  expect(box.y + box.height).toBeLessThanOrEqual(outer.y + outer.height + 1);
  expect(box.x).toBeGreaterThanOrEqual(outer.x - 1);
  expect(box.x + box.width).toBeLessThanOrEqual(outer.x + outer.width + 1);
}

test('embedded in the shop modal: the terminal fills the frame with one close, and the amount and state stay in view at the keypad', async ({
  page,
}, testInfo) => {
  // The shop, the embed, a transaction to the keypad and its screenshots: past 30 s when loaded.
  const consentId = await createConsent(page.request, { payments: [payment] });
  await page.goto(shopUrl(consentId));
  await page.getByRole('button', { name: 'Pay with Oya' }).click();
  const shopModal = page.getByRole('dialog', { name: 'Consent request' });
  const iframe = page.locator('iframe[title="Consent request"]');
  const frame = page.frameLocator('iframe[title="Consent request"]');
  const method = frame.getByRole('button', { name: /Chip Card Terminal/ });
  await expect(method).toBeVisible();
  const heightBefore = await iframe.evaluate((node) => node.style.height);
  await method.click();
  const dialog = frame.getByRole('dialog', { name: 'Chip Card Terminal' });
  await expect(dialog).toBeVisible();

  // One close: the terminal's. The shop's own is hidden while the terminal is open.
  await expect(shopModal.getByRole('button', { name: 'Close' })).toBeHidden();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  // The terminal is the frame, and the frame is the modal's whole room inside the window.
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  await expect
    .poll(async () => (await iframe.boundingBox())?.height ?? 0)
    .toBeGreaterThan(viewport.height - 40);
  const frameBox = await iframe.boundingBox();
  if (!frameBox) throw new Error('no iframe box');
  await expectInside(iframe, { x: 0, y: 0, ...viewport });
  const box = await dialog.boundingBox();
  expect(box).toEqual(frameBox);
  await snap(page, testInfo, 'terminal-embedded-disconnected');

  await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
  await expect(fact(dialog, 'Connection')).toHaveText('Connected');
  const card = chipCard('chip_approved');
  await dialog.getByRole('button', { name: 'Start Chip Card Transaction' }).click();
  await dialog.getByLabel('Chip test card').selectOption(card.number);
  await dialog.getByRole('button', { name: 'Insert Card' }).click();
  await expect(fact(dialog, 'Transaction state')).toHaveText('PIN entry');
  for (const digit of card.pin) {
    await dialog.getByRole('button', { name: digit, exact: true }).click();
  }
  await expect(dialog.getByRole('button', { name: 'Enter', exact: true })).toBeEnabled();
  // With the keypad used to its last key, the amount and the state are still in sight.
  await expectInside(dialog.getByRole('button', { name: 'Enter', exact: true }), frameBox);
  await expectInside(fact(dialog, 'Amount'), frameBox);
  await expect(fact(dialog, 'Amount')).toHaveText('₦2,500.00');
  await expectInside(fact(dialog, 'Transaction state'), frameBox);
  await expectInside(dialog.getByText('In progress', { exact: true }), frameBox);
  await snap(page, testInfo, 'terminal-embedded-pin-entry');
  await expectNoViolations(page);

  // The terminal's close gives the shop its modal back as it was.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(shopModal.getByRole('button', { name: 'Close' })).toBeVisible();
  await expect.poll(() => iframe.evaluate((node) => node.style.height)).toMatch(/^\d+px$/);
  expect(heightBefore).toMatch(/^\d+px$/);
});

// ---- Web Bluetooth against an emulated reader ------------------------------------------------

type TPeripheral = {
  browserCdp: CDPSession;
  /** Every frame the page wrote to the write characteristic, decoded. */
  written: unknown[];
  address: string;
  close(): Promise<void>;
};

let addressCounter = 0;

/**
 * A reader emulated by Chromium (BluetoothEmulation on the browser's session; the device chooser
 * answered through DeviceAccess on the page's): its GATT service, the write characteristic and,
 * unless left out, the notify one with its client configuration descriptor.
 */
async function emulateReader(
  page: Page,
  options: { notify?: boolean; chooser?: 'select' | 'cancel'; connection?: number } = {},
): Promise<TPeripheral> {
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  const browserCdp = await browser.newBrowserCDPSession();
  const pageCdp = await page.context().newCDPSession(page);
  addressCounter += 1;
  const address = `0A:1B:2C:3D:4E:${String(10 + addressCounter).padStart(2, '0')}`;
  await browserCdp.send('BluetoothEmulation.enable', { state: 'powered-on', leSupported: true });
  await browserCdp.send('BluetoothEmulation.simulatePreconnectedPeripheral', {
    address,
    name: 'QPOS-SANDBOX',
    manufacturerData: [{ key: 0x0a1b, data: Buffer.from('QP5SBX000001').toString('base64') }],
    knownServiceUuids: [READER_GATT.service],
  });
  const { serviceId } = await browserCdp.send('BluetoothEmulation.addService', {
    address,
    serviceUuid: READER_GATT.service,
  });
  const { characteristicId: writeId } = await browserCdp.send(
    'BluetoothEmulation.addCharacteristic',
    { serviceId, characteristicUuid: READER_GATT.write, properties: { write: true } },
  );
  if (options.notify !== false) {
    const { characteristicId } = await browserCdp.send('BluetoothEmulation.addCharacteristic', {
      serviceId,
      characteristicUuid: READER_GATT.notify,
      properties: { notify: true },
    });
    await browserCdp.send('BluetoothEmulation.addDescriptor', {
      characteristicId,
      descriptorUuid: '00002902-0000-1000-8000-00805f9b34fb',
    });
  }
  const written: unknown[] = [];
  const decoder = createReaderFrameDecoder();
  browserCdp.on('BluetoothEmulation.gattOperationReceived', (event) => {
    const code = event.type === 'connection' ? (options.connection ?? 0) : 0;
    void browserCdp
      .send('BluetoothEmulation.simulateGATTOperationResponse', {
        address: event.address,
        type: event.type,
        code,
      })
      .catch(() => undefined);
  });
  browserCdp.on('BluetoothEmulation.characteristicOperationReceived', (event) => {
    if (event.type === 'write' && event.characteristicId === writeId && event.data) {
      for (const frame of decoder.push(Buffer.from(event.data, 'base64'))) {
        if (frame.kind === 'message') written.push(frame.value);
      }
    }
    void browserCdp
      .send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
        characteristicId: event.characteristicId,
        type: event.type,
        code: 0,
      })
      .catch(() => undefined);
  });
  browserCdp.on('BluetoothEmulation.descriptorOperationReceived', (event) => {
    void browserCdp
      .send('BluetoothEmulation.simulateDescriptorOperationResponse', {
        descriptorId: event.descriptorId,
        type: event.type,
        code: 0,
      })
      .catch(() => undefined);
  });
  await pageCdp.send('DeviceAccess.enable');
  let answered = false;
  pageCdp.on('DeviceAccess.deviceRequestPrompted', (event) => {
    // The chooser is prompted again as devices update: answer it once.
    if (answered) return;
    answered = true;
    const device = event.devices.find((d) => d.id === address);
    void (
      options.chooser === 'cancel' || !device
        ? pageCdp.send('DeviceAccess.cancelPrompt', { id: event.id })
        : pageCdp.send('DeviceAccess.selectPrompt', { id: event.id, deviceId: device.id })
    ).catch(() => undefined);
  });
  return {
    browserCdp,
    written,
    address,
    async close() {
      await browserCdp.send('BluetoothEmulation.disable').catch(() => undefined);
      await browserCdp.detach().catch(() => undefined);
      await pageCdp.detach().catch(() => undefined);
    },
  };
}

/**
 * A page in a browser of its own with Web Bluetooth on (behind a feature on Linux Chromium), so
 * the sandbox tests above keep the configuration's browser, where only the sandbox reader exists.
 */
const btTest = test.extend<{ btPage: Page }>({
  btPage: async ({ viewport, baseURL }, use) => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM.path,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--enable-features=WebBluetooth',
      ],
    });
    const context = await browser.newContext({ viewport, baseURL });
    await use(await context.newPage());
    await browser.close();
  },
});

btTest.describe('chip card terminal: Web Bluetooth against an emulated reader', () => {
  btTest(
    'connects, sets up both characteristics, sends doTrade(3, 20) in 0156 / 10, resets and disconnects',
    async ({ btPage: page }, testInfo) => {
      const consentId = await createConsent(page.request, { payments: [payment] });
      await page.goto(consentPath(consentId));
      const reader = await emulateReader(page);
      try {
        await page.getByRole('button', { name: /Chip Card Terminal/ }).click();
        const dialog = terminal(page);
        await expect(dialog.getByRole('radio', { name: 'Bluetooth reader' })).toBeChecked();
        await snap(page, testInfo, 'terminal-bluetooth-choice');
        await expectNoViolations(page);
        await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
        await expect(fact(dialog, 'Connection')).toHaveText('Connected');
        await expect(dialog.getByRole('alert')).toHaveCount(0);
        await expect(dialog.getByRole('radio', { name: 'Bluetooth reader' })).toBeDisabled();

        await dialog.getByRole('button', { name: 'Start Chip Card Transaction' }).click();
        await expect(fact(dialog, 'Transaction state')).toHaveText('Waiting for card');
        await expect.poll(() => reader.written).toEqual([doTradeCommand(payment.amount)]);
        // spec §9: doTrade(3, 20), currency code 0156, transaction type 10, the amount in kobo.
        expect(reader.written[0]).toMatchObject({ mode: 3, timeout: 20, amount: '250000' });
        expect(reader.written[0]).toMatchObject({ currencyCode: '0156', transactionType: '10' });
        // No sandbox keypad for a real reader: the card and PIN are in the payer's hand.
        await expect(dialog.getByRole('button', { name: 'Insert Card' })).toHaveCount(0);
        await snap(page, testInfo, 'terminal-bluetooth-waiting');

        await dialog.getByRole('button', { name: 'Reset Transaction' }).click();
        await expect(fact(dialog, 'Transaction state')).toHaveText('Idle');
        await expect.poll(() => reader.written.at(-1)).toEqual({ cmd: 'cancelTrade' });
        await dialog.getByRole('button', { name: 'Reset Device' }).click();
        await expect.poll(() => reader.written.at(-1)).toEqual({ cmd: 'resetDevice' });

        await dialog.getByRole('button', { name: 'Disconnect' }).click();
        await expect(fact(dialog, 'Connection')).toHaveText('Disconnected');
        await expect(dialog.getByRole('button', { name: 'Connect Card Reader' })).toBeEnabled();
      } finally {
        await reader.close();
      }
    },
  );

  btTest(
    "a reader without the notify characteristic: 'Bluetooth characteristics not properly set up'",
    async ({ btPage: page }, testInfo) => {
      const dialog = await openTerminal(page);
      const reader = await emulateReader(page, { notify: false });
      try {
        await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
        await expect(dialog.getByRole('alert')).toHaveText(
          'Bluetooth characteristics not properly set up',
        );
        await expect(fact(dialog, 'Connection')).toHaveText('Disconnected');
        await snap(page, testInfo, 'terminal-bluetooth-characteristics');
        await expectNoViolations(page);
      } finally {
        await reader.close();
      }
    },
  );

  btTest(
    "the chooser cancelled: 'Failed to discover Bluetooth device'",
    async ({ btPage: page }) => {
      const dialog = await openTerminal(page);
      const reader = await emulateReader(page, { chooser: 'cancel' });
      try {
        await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
        await expect(dialog.getByRole('alert')).toHaveText('Failed to discover Bluetooth device');
      } finally {
        await reader.close();
      }
    },
  );

  btTest(
    "the reader refuses the GATT connection: 'Failed to connect to device'",
    async ({ btPage: page }) => {
      const dialog = await openTerminal(page);
      // HCI 0x3E: connection failed to be established.
      const reader = await emulateReader(page, { connection: 0x3e });
      try {
        await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
        await expect(dialog.getByRole('alert')).toHaveText('Failed to connect to device');
      } finally {
        await reader.close();
      }
    },
  );

  btTest('the reader going away disconnects the terminal', async ({ btPage: page }) => {
    const dialog = await openTerminal(page);
    const reader = await emulateReader(page);
    try {
      await dialog.getByRole('button', { name: 'Connect Card Reader' }).click();
      await expect(fact(dialog, 'Connection')).toHaveText('Connected');
      await reader.browserCdp.send('BluetoothEmulation.simulateGATTDisconnection', {
        address: reader.address,
      });
      await expect(fact(dialog, 'Connection')).toHaveText('Disconnected');
    } finally {
      await reader.close();
    }
  });
});
