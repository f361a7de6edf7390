import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // What needs PostgreSQL itself (several server processes on one database) runs where
    // DATABASE_URL names one: `npm run test:postgres`, the second pass of CI.
    exclude: process.env.DATABASE_URL ? [] : ['src/**/*.postgres.test.ts'],
    environment: 'node',
    globalSetup: ['scripts/vitest-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
