import { afterAll, beforeAll } from 'vitest';
import type { TDb } from '../db/database';
import { startNoticeReceiver, type TNoticeReceiver } from './notice-receiver';
import { openTestDatabase } from './test-app';

/** What a provider's contract test file runs its suites on, started once for the file. */
export type TContractSetup<TSimulator, TProvider> = {
  simulator: TSimulator;
  provider: TProvider;
  database: Awaited<ReturnType<typeof openTestDatabase>>;
  /** Where the simulator sends its signed notices. */
  receiver: TNoticeReceiver;
};

/**
 * A provider's contract test file's set-up: a notice receiver, the provider's simulator sending
 * its notices there, a database and the adapter over them, started before the file's suites (and
 * at the first suite that asks, whichever comes first) and closed after them. Answers the
 * function each suite awaits for them.
 */
export function contractSetup<TSimulator extends { close(): Promise<void> }, TProvider>(start: {
  simulator: (noticeUrl: string) => Promise<TSimulator>;
  provider: (simulator: TSimulator, db: TDb) => TProvider;
}): () => Promise<TContractSetup<TSimulator, TProvider>> {
  let setup: Promise<TContractSetup<TSimulator, TProvider>> | undefined;
  const parts: {
    receiver?: TNoticeReceiver;
    simulator?: TSimulator;
    database?: TContractSetup<TSimulator, TProvider>['database'];
  } = {};
  const started = () =>
    (setup ??= (async () => {
      const receiver = (parts.receiver = await startNoticeReceiver());
      const simulator = (parts.simulator = await start.simulator(receiver.url));
      const database = (parts.database = await openTestDatabase());
      return { receiver, simulator, database, provider: start.provider(simulator, database.db) };
    })());
  beforeAll(async () => {
    await started();
  });
  afterAll(async () => {
    await parts.simulator?.close();
    await parts.receiver?.close();
    await parts.database?.close();
  });
  return started;
}
