import type { z } from 'zod';
import { ZApiErrorBody } from '../../domain/errors';
import { readToken } from './session';

/** A failed call: the server's catalogue code and message, and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type TRequest<S extends z.ZodType> = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** The domain schema of the answer: the page trusts nothing it has not parsed. */
  schema: S;
  signal?: AbortSignal | undefined;
};

/** Calls our API with the payer's bearer token when present (spec §7). */
export async function apiFetch<S extends z.ZodType>(
  path: string,
  { method = 'GET', body, schema, signal }: TRequest<S>,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'NETWORK_ERROR', 'API request failed');
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = ZApiErrorBody.safeParse(json);
    if (parsed.success) {
      throw new ApiError(response.status, parsed.data.error.code, parsed.data.error.message);
    }
    throw new ApiError(
      response.status,
      'API_REQUEST_FAILED',
      `API call failed: ${response.status}`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ApiError(response.status, 'API_REQUEST_FAILED', 'API request failed');
  return parsed.data;
}
