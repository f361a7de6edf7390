import { TERMINAL_SDK_MAX_LOAD_RETRIES } from '../../../domain/constants';

/** The wait before retry n (1-based): a little longer each time. */
export const SDK_RETRY_DELAY_MS = 250;

/**
 * Loads a module, retrying a failed load up to TERMINAL_SDK_MAX_LOAD_RETRIES times (spec §9
 * "SDK load retries up to 5 times"); rejects with the last failure once every try failed.
 */
export async function loadWithRetries<T>(
  load: () => Promise<T>,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
  retries: number = TERMINAL_SDK_MAX_LOAD_RETRIES,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= retries) throw error;
      await wait(SDK_RETRY_DELAY_MS * (attempt + 1));
    }
  }
}

export const loadReaderDriver = () => loadWithRetries(() => import('./reader-driver'));
