// @vitest-environment jsdom
import { expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from './session';

// The user's schema comes with the calling code; here that code does not come (a dropped
// connection while its chunk was fetched).
vi.mock('./call', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

it('signs nobody in, and says so, once the stored user cannot be read: the page then settles', async () => {
  localStorage.setItem(STORAGE_KEYS.token, 'tok_stored');
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ userId: 'usr_1' }));
  const session = await import('./session');
  const heard = vi.fn();
  session.subscribeSession(heard);
  // Waiting for the schema, a stored user is taken as signed in: the page waits with it.
  expect(session.storedSignIn()).toBe(true);
  const { sessionReady } = await import('./http');
  await sessionReady;
  expect(session.storedSignIn()).toBe(false);
  expect(session.getSession().user).toBeNull();
  expect(heard).toHaveBeenCalled();
});
