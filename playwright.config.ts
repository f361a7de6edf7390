import { defineConfig } from '@playwright/test';
import { E2E, SNAP } from './tests/e2e/e2e-env';

export default defineConfig({
  testDir: 'tests/e2e',
  // Movable, like the ports (e2e-env.ts), so two runs on one machine keep their own results.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: true,
  workers: 2,
  // One more try for a test that failed, reported as flaky by name in the list: the 2-core CI
  // machine runs two browsers, the servers and their databases at once, and a stop's work is
  // lost with a red run. A test that fails twice still fails the run.
  retries: 1,
  timeout: 30_000,
  // A first load on the 2-core CI machine (two browsers, the server and its database on one
  // box) can pass 5 s; a screen that never comes still fails.
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E.appOrigin,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  projects: [
    // The width rule: every test runs once, at 390 px (the product is mobile first); a test about
    // the desktop is tagged @desktop and runs at 1280 px instead. Only a test of a layout that
    // changes at 768 px is tagged @both-widths and runs at both: the standalone side panel, the
    // embed script's modal, the account list. With SNAP=1 (screenshots, merchant.ts) every test
    // runs at both widths again, so each screen is shot at 390 px and at 1280 px.
    {
      name: 'mobile',
      use: { viewport: { width: 390, height: 844 } },
      grepInvert: /@desktop/,
    },
    {
      name: 'desktop',
      use: { viewport: { width: 1280, height: 800 } },
      ...(SNAP ? {} : { grep: /@desktop|@both-widths/ }),
    },
    // After every other test: the books they left balance (books.check.ts).
    { name: 'books', testMatch: 'books.check.ts', dependencies: ['mobile', 'desktop'] },
  ],
  webServer: [
    {
      command: 'npx tsx --import ./scripts/style-imports.ts tests/e2e/app-server.ts',
      url: `${E2E.appOrigin}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
    },
    {
      command: 'npx tsx tests/e2e/embed-host.ts',
      url: `${E2E.hostOrigin}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
