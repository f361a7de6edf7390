import { defineConfig } from '@playwright/test';
import { CHROMIUM, E2E, SNAP } from './tests/e2e/e2e-env';

export default defineConfig({
  testDir: 'tests/e2e',
  // Movable, like the ports (e2e-env.ts), so two runs on one machine keep their own results.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: true,
  // Four browsers at once on the 2-core machine: a test spends most of its time waiting on the
  // server, a timer or the sandbox's answers (at two, the cores stood half idle). The suite took
  // 5.5 min with four on the quiet machine, 6 min beside two busy processes.
  workers: 4,
  // A test that fails once is fixed, or deleted with its reason: no second try hides it.
  retries: 0,
  // Limits on a test or a wait that never ends, sized for the 2-core machine under a load
  // average of 60 (where a screen that comes in a second alone can take 20): every wait is for a
  // condition, so only a failing test waits this long.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // The list; with E2E_JSON_REPORT (npm test sets it) a JSON report too, read for the slowest
  // files at the end of the run (scripts/slowest-files.ts).
  reporter: process.env.E2E_JSON_REPORT
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT }]]
    : [['list']],
  use: {
    baseURL: E2E.appOrigin,
    // Recording a trace of every test costs a quarter of the run; a failure prints its page as
    // it stood (error-context.md, printed by .ci/run). E2E_TRACE=1 keeps a failed test's trace.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: CHROMIUM.path,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  projects: [
    // The width rule: every test runs once, at 390 px (the product is mobile first); a test about
    // the desktop is tagged @desktop and runs at 1280 px instead. Only a test of a layout that
    // changes at 768 px is tagged @both-widths and runs at both: the standalone side panel, the
    // embed script's modal, the account list, the payer's consents. A journey through screens
    // whose layout another test already checks at both widths runs once. With SNAP=1 (screenshots, merchant.ts) every test
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
      // It answers in about 5 s alone; 164 s was seen on a 2-core machine at a load average of
      // 15-60. Its output (stdout and stderr) is printed as it comes, so a start that fails says why.
      timeout: 600_000,
      stdout: 'pipe',
    },
    {
      // The built server the dashboard's files share (built-server.ts), on a new data directory.
      command: `rm -rf ${E2E.builtDataDir} && exec node dist/server/main.mjs`,
      url: `${E2E.builtOrigin}/api/health`,
      env: {
        PORT: String(E2E.builtPort),
        DATA_DIR: E2E.builtDataDir,
        WEBHOOKS_ALLOW_PRIVATE: 'on',
        LOG_LEVEL: 'warn',
      },
      reuseExistingServer: false,
      timeout: 600_000,
    },
    {
      command: 'npx tsx tests/e2e/embed-host.ts',
      url: `${E2E.hostOrigin}/health`,
      reuseExistingServer: false,
      timeout: 600_000,
    },
  ],
});
