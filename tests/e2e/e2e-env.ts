import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The browser of the browser tests: Debian's Chromium headless shell (package
 * chromium-headless-shell), the browser Playwright itself runs headless. The same Chromium as the
 * `chromium` package, with its DevTools (WebAuthn, BluetoothEmulation), without the desktop
 * browser's own interface: a third less CPU for the suite on the 2-core machine (docs/testing.md
 * "Chromium"). CHROMIUM_PATH names another.
 */
export const CHROMIUM = {
  path: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
  debianPackage: 'chromium-headless-shell',
};

/*
 * Where the end-to-end servers listen and the merchant client the tests act as. The ports can be
 * moved (E2E_APP_PORT, E2E_HOST_PORT) so two runs on one machine do not collide.
 */
const appPort = Number(process.env.E2E_APP_PORT ?? 3917);
const hostPort = Number(process.env.E2E_HOST_PORT ?? 3918);
/** The built server the dashboard's files share, past the ports the other files take. */
const builtPort = appPort + 60;

export const E2E = {
  appPort,
  appOrigin: `http://localhost:${appPort}`,
  /** A second origin: a merchant page that embeds the consent page. */
  hostPort,
  hostOrigin: `http://localhost:${hostPort}`,
  /**
   * The built server as `npm start` runs it (dist/server/main.mjs), shared by the browser files
   * that need one with nothing of the test server's fixtures (built-server.ts).
   */
  builtPort,
  builtOrigin: `http://localhost:${builtPort}`,
  builtDataDir: path.join(tmpdir(), `oya-e2e-built-${builtPort}`),
  /** An origin the merchant did not register. */
  strangerOrigin: `http://127.0.0.1:${hostPort}`,
  clientId: 'cli_e2e',
  clientSecret: 'sk_e2e_not_a_production_secret',
  otherClientId: 'cli_e2e_other',
  otherClientSecret: 'sk_e2e_other_not_a_production_secret',
  /** Signs payer tokens on the test server, so a test can make a genuinely expired one. */
  tokenSecret: 'e2e-token-secret-not-for-production-0123456789',
} as const;

/**
 * SNAP=1 asks for the screenshots (snap() in merchant.ts) and runs every test at both widths
 * (playwright.config.ts), to look at each screen at 390 px and 1280 px; without it none is taken.
 */
export const SNAP = process.env.SNAP === '1';

/**
 * A limit, not a wait, on a built server's card payment reaching the merchant's page: the
 * sandbox's 3 s completion, its event, the grant and the embed's message, each a step of a
 * second server process. Seven seconds at a load average of 8; the 30 s of Playwright's default
 * ran out once at 16 (CI runs the browser and unit lanes side by side).
 */
export const BUILT_SERVER_PAYMENT_LIMIT = { timeout: 120_000 };
