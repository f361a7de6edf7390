import { parseArgs } from 'node:util';
import { ZHexColour } from '../src/domain/schemas/consent';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { createMerchantClient } from '../src/server/services/merchant-clients';

const usage =
  'Usage: npm run client:create -- --name "Merchant name" [--origin https://shop.example]... [--image URL] [--primary #FE7048]';

async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      origin: { type: 'string', multiple: true },
      image: { type: 'string' },
      primary: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || !values.name?.trim()) {
    console.error(usage);
    process.exit(values.help ? 0 : 2);
  }
  if (values.primary && !ZHexColour.safeParse(values.primary).success) {
    console.error(`--primary must be a hex colour such as #FE7048: ${values.primary}`);
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
  );
  try {
    const created = await createMerchantClient(database.db, {
      name: values.name.trim(),
      origins: values.origin ?? [],
      image: values.image ?? null,
      ...(values.primary ? { colours: { primaryColour: values.primary } } : {}),
    });
    console.log(`merchantId: ${created.merchantId}`);
    console.log(`clientId:   ${created.clientId}`);
    console.log(`secret:     ${created.secret}`);
    console.log('The secret is shown only now: store it safely. It is kept only as a hash.');
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
