import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { seedDemo } from './services/demo-seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
  );
  const app = await buildApp({ config, database, webDir: path.join(root, 'dist/web') });
  const demo = await seedDemo(database.db, config);
  await app.listen({ port: config.port, host: config.host });

  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  console.log(`Consent server ready on ${config.publicUrl} (database: ${where})`);
  for (const line of demo) console.log(`Demo consent, ${line.label}: ${line.url}`);
  console.log(
    `Sign in: ${config.publicUrl}/login (sandbox SMS codes: ${config.publicUrl}/sandbox/messages)`,
  );

  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
