import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/server/db/schema/consents.ts',
    './src/server/db/schema/identity.ts',
    './src/server/db/schema/events.ts',
    './src/server/db/schema/money.ts',
    './src/server/db/schema/sandbox.ts',
    './src/server/db/schema/accounts.ts',
    './src/server/db/schema/webhooks.ts',
    './src/server/db/schema/forms.ts',
    './src/server/db/schema/collections.ts',
    './src/server/db/schema/notices.ts',
  ],
  out: './src/server/db/migrations',
});
