// npm run link:debit-provider — lists the active account links that name no debit provider
// (made before it was kept, whose rows did not say who: docs/operations.md "Links with no debit
// provider"); `-- <linkId> <provider>` names the provider that debits one (one serving debits,
// e.g. paystack), once: a link that names one keeps it. Run with the server's settings against
// its database (DATA_DIR or DATABASE_URL); with the embedded database, stop the server first
// (PGlite is one process's). Exits 1 when nothing was named.
import { loadConfig } from '../src/server/config';
import { openConfiguredDatabase } from '../src/server/db/database';
import {
  linksNamingNoDebitProvider,
  nameDebitProvider,
  type TDebitProviderNaming,
} from '../src/server/services/payments/mandate-debits';

const [linkId, provider] = process.argv.slice(2);
if (linkId && !provider) {
  console.error('Usage: npm run link:debit-provider [-- <linkId> <provider>]');
  process.exit(2);
}

const said = (answer: TDebitProviderNaming): string => {
  switch (answer.kind) {
    case 'named':
      return `Link ${linkId}: debited by ${provider} from now on.`;
    case 'named_already':
      return `Link ${linkId} names ${answer.provider} already, which it keeps.`;
    case 'no_such_link':
      return `No link ${linkId}.`;
    case 'not_a_debits_provider':
      return `${provider} is no provider of debits this server knows.`;
  }
};

const database = await openConfiguredDatabase(loadConfig());
try {
  if (linkId && provider) {
    const answer = await nameDebitProvider(database.db, linkId, provider);
    console.log(said(answer));
    process.exitCode = answer.kind === 'named' ? 0 : 1;
  } else {
    const links = await linksNamingNoDebitProvider(database.db);
    for (const link of links) console.log(`${link.id}\t${link.payerId}\t${link.route}`);
    console.log(`${links.length} active link(s) name no debit provider.`);
  }
} finally {
  await database.close();
}
