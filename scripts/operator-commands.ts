// What the `npm run client:*` commands share (client.ts, client-events.ts): the running server
// they ask on PGlite and its operator calls (operator-file.ts), their `key: value` output, and
// their exit: 2 for a usage error, 1 for any other failure. A module of its own, so that each
// command's file is only its command: run as it is (tsx), or built (the tests' build,
// src/server/testing/server-process.ts).
import type { z } from 'zod/mini';
import { ZApiErrorBody } from '../src/domain/schemas/api-error';
import { AppError } from '../src/server/app-error';
import type { TConfig } from '../src/server/config';
import { readOperatorFile, type TOperatorFile } from '../src/server/operator-file';

export class UsageError extends Error {}

/** The server `npm run client:*` asks: on PGlite, the one running (null when none runs). */
export const runningServer = (config: TConfig): TOperatorFile | null =>
  config.databaseUrl ? null : readOperatorFile(config.dataDir);

/** One operator call of the running server, its answer parsed; a failure throws its message. */
export function operatorCall(server: TOperatorFile) {
  return async <T extends z.ZodMiniType>(
    method: string,
    path: string,
    body: unknown,
    answer: T,
  ): Promise<z.output<T>> => {
    const response = await fetch(new URL(path, server.url), {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await response.json();
    if (!response.ok) {
      const failure = ZApiErrorBody.safeParse(json);
      throw new Error(failure.success ? failure.data.error.message : `HTTP ${response.status}`);
    }
    return answer.parse(json);
  };
}

/** `key: value` lines, the values in one column. */
export function print(result: unknown) {
  const entries = Object.entries(result as Record<string, unknown>).filter(
    ([k]) => k !== 'success',
  );
  const width = Math.max(...entries.map(([key]) => key.length)) + 2;
  for (const [key, value] of entries) {
    const shown = Array.isArray(value) ? value.join(' ') || '(none)' : String(value);
    console.log(`${`${key}:`.padEnd(width)}${shown}`);
  }
}

/** Runs a command: a usage error exits 2, any other failure 1, each with its message. */
export function runCommand(command: () => Promise<void>) {
  command().catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error instanceof AppError || error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
