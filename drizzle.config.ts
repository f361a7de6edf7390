import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/server/db/schema/consents.ts', './src/server/db/schema/identity.ts'],
  out: './src/server/db/migrations',
});
