// `npm run client:<command>`: a merchant's API client, created and changed while the server runs
// or not, in either database mode (docs/merchant-clients.md).
import { parseArgs } from 'node:util';
import type { z } from 'zod/mini';
import {
  ZChangeOriginsRequest,
  ZChangeOriginsResponse,
  ZClientResponse,
  ZOperatorCreateClientRequest,
  ZOperatorCreateClientResponse,
  ZOperatorCreateWebhookRequest,
  ZOperatorCreateWebhookResponse,
  ZOperatorRotateWebhookSecretResponse,
  ZRotateSecretRequest,
  ZRotateSecretResponse,
} from '../src/domain/schemas/merchant-client';
import { systemClock } from '../src/server/clock';
import { loadConfig, type TConfig } from '../src/server/config';
import { openConfiguredDatabase } from '../src/server/db/database';
import type { TOperatorFile } from '../src/server/operator-file';
import { openServerSecrets } from '../src/server/crypto/server-secrets';
import {
  changeClientOrigins,
  createMerchantClient,
  readClient,
  rotateClientSecret,
} from '../src/server/services/merchants/merchant-clients';
import {
  createWebhookEndpoint,
  rotateWebhookSecret,
} from '../src/server/services/merchants/webhook-endpoints';
import { ZOwnerInvitationRequest, ZOwnerInvitationResponse } from '../src/domain/schemas/dashboard';
import { operatorActor } from '../src/server/services/dashboard/audit';
import { createInvitation } from '../src/server/services/dashboard/staff';
import { normalisePhone } from '../src/server/services/identity/phone-codes';
import { systemHostResolver } from '../src/server/providers/host-resolver';
import { operatorCall, print, runCommand, runningServer, UsageError } from './operator-commands';

const USAGE: Record<string, string> = {
  create:
    'npm run client:create -- --name "Merchant name" [--origin https://shop.example]... [--image URL] [--primary #FE7048] [--owner-phone 0803…]',
  show: 'npm run client:show -- --client cli_…',
  'rotate-secret': 'npm run client:rotate-secret -- --client cli_… [--grace-hours 24]',
  origins:
    'npm run client:origins -- --client cli_… [--add https://shop.example]... [--remove https://old.example]...',
  webhook: 'npm run client:webhook -- --client cli_… --url https://shop.example/hooks',
  'webhook-rotate-secret': 'npm run client:webhook-rotate-secret -- --client cli_… --webhook whk_…',
};

/** What each command does, by whichever way reaches the database. */
type TClientAccess = {
  create(body: z.input<typeof ZOperatorCreateClientRequest>): Promise<unknown>;
  show(clientId: string): Promise<unknown>;
  rotateSecret(clientId: string, body: z.input<typeof ZRotateSecretRequest>): Promise<unknown>;
  changeOrigins(clientId: string, body: z.input<typeof ZChangeOriginsRequest>): Promise<unknown>;
  addWebhook(
    clientId: string,
    body: z.input<typeof ZOperatorCreateWebhookRequest>,
  ): Promise<unknown>;
  rotateWebhookSecret(clientId: string, webhookId: string): Promise<unknown>;
  /** The dashboard's owner invitation of the client's merchant (docs/dashboard.md). */
  inviteOwner(
    clientId: string,
    body: z.input<typeof ZOwnerInvitationRequest>,
  ): Promise<z.output<typeof ZOwnerInvitationResponse>>;
  close(): Promise<void>;
  where: string;
};

/** Validates a command's input with the schema the server's route uses. */
function valid<T extends z.ZodMiniType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${issue?.path.join('.') || 'input'}: ${issue?.message}`);
  }
  return parsed.data;
}

/** The running server, through its operator calls. */
function serverAccess(server: TOperatorFile): TClientAccess {
  const call = operatorCall(server);
  const client = (id: string) => `/api/operator/clients/${encodeURIComponent(id)}`;
  return {
    where: `the running server (pid ${server.pid})`,
    create: (body) => call('POST', '/api/operator/clients', body, ZOperatorCreateClientResponse),
    show: (id) => call('GET', client(id), undefined, ZClientResponse),
    rotateSecret: (id, body) => call('POST', `${client(id)}/secret`, body, ZRotateSecretResponse),
    changeOrigins: (id, body) =>
      call('PATCH', `${client(id)}/origins`, body, ZChangeOriginsResponse),
    addWebhook: (id, body) =>
      call('POST', `${client(id)}/webhooks`, body, ZOperatorCreateWebhookResponse),
    rotateWebhookSecret: (id, webhookId) =>
      call(
        'POST',
        `${client(id)}/webhooks/${encodeURIComponent(webhookId)}/rotate-secret`,
        undefined,
        ZOperatorRotateWebhookSecretResponse,
      ),
    inviteOwner: (id, body) =>
      call('POST', `${client(id)}/owner-invitations`, body, ZOwnerInvitationResponse),
    close: async () => {},
  };
}

/** The database itself: PostgreSQL (shared by every process), or PGlite when no server runs. */
async function databaseAccess(config: TConfig): Promise<TClientAccess> {
  const database = await openConfiguredDatabase(config);
  const { db } = database;
  // Client secrets are hashed with a server secret: sealed ones open only with SECRETS_KEY.
  try {
    await openServerSecrets(db, config.secretsKey);
  } catch (error) {
    await database.close();
    throw error;
  }
  const now = () => systemClock.now();
  return {
    where: config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`,
    async create(body) {
      const { name, origins, image, primaryColour } = valid(ZOperatorCreateClientRequest, body);
      return createMerchantClient(db, {
        name,
        origins,
        image,
        ...(primaryColour ? { colours: { primaryColour } } : {}),
      });
    },
    show: (id) => readClient(db, id, now()),
    async rotateSecret(id, body) {
      const { graceHours } = valid(ZRotateSecretRequest, body);
      return rotateClientSecret(db, {
        clientId: id,
        presented: 'operator',
        graceHours,
        now: now(),
      });
    },
    changeOrigins: async (id, body) => ({
      allowedOrigins: await changeClientOrigins(db, id, valid(ZChangeOriginsRequest, body)),
    }),
    async addWebhook(id, body) {
      await readClient(db, id, now());
      const { url } = valid(ZOperatorCreateWebhookRequest, body);
      return createWebhookEndpoint(
        { db, config, clock: systemClock, providers: { dns: systemHostResolver() } },
        id,
        url,
      );
    },
    async rotateWebhookSecret(id, webhookId) {
      const { rotated } = await rotateWebhookSecret(db, {
        clientId: id,
        webhookId,
        idempotencyKey: undefined,
        now: now(),
      });
      return rotated;
    },
    async inviteOwner(id, body) {
      const { merchantId } = await readClient(db, id, now());
      const { phone } = valid(ZOwnerInvitationRequest, body);
      const made = await createInvitation(
        db,
        config,
        {
          merchantId,
          role: 'owner',
          refundLimit: null,
          phoneNumber: phone ? normalisePhone(phone) : null,
          invitedBy: operatorActor(merchantId),
        },
        now(),
      );
      return { success: true as const, ...made };
    },
    close: () => database.close(),
  };
}

async function main() {
  const command = process.argv[2] ?? '';
  if (!(command in USAGE)) {
    throw new UsageError(`Commands: ${Object.keys(USAGE).join(', ')}`);
  }
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: {
      name: { type: 'string' },
      origin: { type: 'string', multiple: true },
      image: { type: 'string' },
      primary: { type: 'string' },
      'owner-phone': { type: 'string' },
      client: { type: 'string' },
      'grace-hours': { type: 'string' },
      add: { type: 'string', multiple: true },
      remove: { type: 'string', multiple: true },
      url: { type: 'string' },
      webhook: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const usage = `Usage: ${USAGE[command]}`;
  if (values.help) {
    console.log(usage);
    return;
  }
  const clientId = values.client?.trim() ?? '';
  if (command === 'create' ? !values.name?.trim() : !clientId) throw new UsageError(usage);

  const config = loadConfig();
  const server = runningServer(config);
  const access = server ? serverAccess(server) : await databaseAccess(config);
  try {
    switch (command) {
      case 'create': {
        // Both ways answer the client's credentials (the server's with success: true).
        const created = (await access.create({
          name: values.name ?? '',
          origins: values.origin ?? [],
          image: values.image ?? null,
          ...(values.primary ? { primaryColour: values.primary } : {}),
        })) as Record<string, unknown> & { clientId: string };
        const phone = values['owner-phone']?.trim();
        const invited = await access.inviteOwner(created.clientId, phone ? { phone } : {});
        print({ ...created, ownerInvitation: invited.invitationUrl });
        console.log('The secret is shown only now: store it safely. It is kept only as a hash.');
        console.log(
          `The owner invitation opens the dashboard once, ${phone ? 'for that phone number' : 'for the first phone number that proves itself with it'}, within 7 days.`,
        );
        break;
      }
      case 'show':
        print(await access.show(clientId));
        break;
      case 'rotate-secret': {
        const grace = values['grace-hours'];
        print(
          await access.rotateSecret(
            clientId,
            grace === undefined ? {} : { graceHours: Number(grace) },
          ),
        );
        console.log(
          'The new secret is shown only now. The previous one works until previousSecretValidUntil.',
        );
        break;
      }
      case 'origins':
        print(await access.changeOrigins(clientId, { add: values.add, remove: values.remove }));
        break;
      case 'webhook':
        print(await access.addWebhook(clientId, { url: values.url ?? '' }));
        console.log(
          'The signing secret is shown only now (docs/webhooks.md, "Verifying a delivery").',
        );
        break;
      case 'webhook-rotate-secret': {
        const webhookId = values.webhook?.trim();
        if (!webhookId) throw new UsageError(usage);
        print(await access.rotateWebhookSecret(clientId, webhookId));
        console.log(
          'The new signing secret is shown only now. Deliveries are signed with the previous one too until previousSecretValidUntil.',
        );
        break;
      }
    }
    console.error(`(through ${access.where})`);
  } finally {
    await access.close();
  }
}

runCommand(main);
