import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // What needs PostgreSQL itself (several server processes on one database) runs where
    // DATABASE_URL names one: CI's server tests (scripts/test.sh), `npm run test:postgres`. The
    // fuzz suite runs there too, and only there: every route once with its sampled cases, on the
    // database production runs (a second run on PGlite proved the same routes again). What needs
    // Paystack's test mode runs where PAYSTACK_TEST_SECRET_KEY holds a key for it, and what needs
    // Termii where TERMII_TEST_API_KEY does, Africa's Talking's where AFRICASTALKING_TEST_API_KEY
    // does, Mono's where MONO_TEST_SECRET_KEY does, Remita's where REMITA_TEST_API_KEY does,
    // Monnify's sandbox where MONNIFY_TEST_API_KEY does (.ci/run says when not).
    exclude: [
      ...(process.env.DATABASE_URL ? [] : ['src/**/*.postgres.test.ts', 'src/server/fuzz.test.ts']),
      ...(process.env.PAYSTACK_TEST_SECRET_KEY
        ? []
        : ['src/server/providers/paystack/*.live.test.ts']),
      ...(process.env.TERMII_TEST_API_KEY ? [] : ['src/server/providers/termii/*.live.test.ts']),
      ...(process.env.AFRICASTALKING_TEST_API_KEY
        ? []
        : ['src/server/providers/africastalking/*.live.test.ts']),
      ...(process.env.MONO_TEST_SECRET_KEY ? [] : ['src/server/providers/mono/*.live.test.ts']),
      ...(process.env.REMITA_TEST_API_KEY ? [] : ['src/server/providers/remita/*.live.test.ts']),
      ...(process.env.MONNIFY_TEST_API_KEY ? [] : ['src/server/providers/monnify/*.live.test.ts']),
    ],
    environment: 'node',
    globalSetup: ['scripts/vitest-global-setup.ts'],
    // `npm run test:postgres` runs only what PostgreSQL changes (scripts/test-postgres.sh): a
    // file marked `// @module-tag postgres`, or a test given `{ tags: ['postgres'] }`.
    tags: [
      {
        name: 'postgres',
        description:
          'Also run on PostgreSQL: locking, concurrency, LISTEN/NOTIFY, several processes, migrations, SQL written for PostgreSQL, and the fuzz suite as a smoke test of every route.',
      },
    ],
    // Two files at a time, on the 2-core CI machine too (vitest's default there is one): a server
    // test spends much of its time waiting on its database, a child process or a socket.
    maxWorkers: 2,
    // Limits on a test that never ends, not waits: every test waits for a condition, and these
    // are sized for the 2-core machine at a load average of 60 (a test that takes 2 s alone took
    // 30 s there). A test whose quiet run takes more than a few seconds names its own limit.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Waits for a condition (expect.poll here; findBy…, waitFor and vi.waitFor in the setup file):
    // as long as a loaded machine may need, ended as soon as the condition holds.
    expect: { poll: { timeout: 60_000 } },
    setupFiles: ['src/testing/waits.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts'],
          // Server test files share their worker's modules instead of importing the whole app
          // afresh for each file (a fifth of the suite's time on the 2-core CI machine): every
          // file builds its own app on its own database, and no module keeps state between apps.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'domain, page and whole-tree checks',
          include: [
            'src/*.test.ts',
            'src/domain/**/*.test.ts',
            'src/web/**/*.test.{ts,tsx}',
            'src/sdk/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
