import { STORAGE_KEYS } from '../../domain/constants';
import type { TAuthUser } from '../../domain/schemas/auth';

/** Browser storage keys of the payer's session (spec §3 "Browser storage"), the domain's. */
export { STORAGE_KEYS };

/** Why the payer was sent to sign in (e.g. an expired token); kept until they sign in again. */
const NOTICE_KEY = 'oyaAuthNotice';

/**
 * Storage can be refused (a sandboxed or third-party iframe, private browsing): then the
 * session lives in memory for this page only, and nothing throws.
 */
const memory = new Map<string, string>();
function storage(): Storage | null {
  try {
    const s = window.localStorage;
    s.getItem(STORAGE_KEYS.token);
    return s;
  } catch {
    return null;
  }
}
function read(key: string): string | null {
  const s = storage();
  return s ? s.getItem(key) : (memory.get(key) ?? null);
}
function write(key: string, value: string | null) {
  const s = storage();
  if (value === null) {
    if (s) s.removeItem(key);
    memory.delete(key);
  } else if (s) s.setItem(key, value);
  else memory.set(key, value);
}

export type TSession = {
  token: string | null;
  user: TAuthUser | null;
  identifiedTo: string | null;
  notice: string | null;
};

/**
 * No session: what a server sees, which has no browser storage, and so what a page drawn there
 * is hydrated with before the stored session takes over (src/web/server-render.tsx).
 */
export const NO_SESSION: TSession = Object.freeze({
  token: null,
  user: null,
  identifiedTo: null,
  notice: null,
});

let snapshot: TSession | null = null;

type TUserParser = (stored: unknown) => TAuthUser | null;
let parseUser: TUserParser | null = null;
/** A user was stored when the session was last read, and could not be read without its schema. */
let userUnread = false;

/**
 * The stored user is read with its schema (ZAuthUser), which call.ts gives when it loads, with
 * zod, at the page's first call: until then no user is read, so the consent's first screen is
 * taken over without zod (src/web/main.tsx). A page that finds a user stored loads it at once.
 */
export function setUserParser(parse: TUserParser): void {
  parseUser = parse;
  // Read again only what was left unread: the session is otherwise read again on the page's
  // own changes, another tab's, or the parent's word (reloadSession), never by the way.
  if (userUnread) changed();
}

/** The user's schema did not come (its code failed to load): the page stays signed out. */
let userSchemaMissing = false;

/** Says the user's schema will not come: the stored session then signs nobody in here. */
export function userSchemaUnavailable(): void {
  userSchemaMissing = true;
  changed();
}

const listeners = new Set<() => void>();

function readSession(): TSession {
  const token = read(STORAGE_KEYS.token);
  let user: TAuthUser | null = null;
  const rawUser = read(STORAGE_KEYS.user);
  userUnread = rawUser !== null && !parseUser;
  if (rawUser && parseUser) {
    try {
      user = parseUser(JSON.parse(rawUser));
    } catch {
      user = null;
    }
  }
  const identifiedTo = read(STORAGE_KEYS.identifiedTo);
  const notice = readNotice();
  // Nothing stored is NO_SESSION itself: a page hydrated with it sees no change, so nothing on
  // it draws again before the screens the server drew are taken over.
  if (!token && !user && !identifiedTo && !notice) return NO_SESSION;
  return { token, user, identifiedTo, notice };
}

function changed() {
  snapshot = null;
  for (const listener of listeners) listener();
}

/** The session as stored; the same object until it changes (useSyncExternalStore needs that). */
export function getSession(): TSession {
  snapshot ??= readSession();
  return snapshot;
}

/** Calls back when the session changes, in this tab or another (storage event). */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values(STORAGE_KEYS).includes(event.key as never)) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * Reads the stored session again: the embedding parent said the payer signed in elsewhere
 * ('authentication-updated', spec §6), where no storage event reaches this frame.
 */
export function reloadSession(): void {
  changed();
}

export function readToken(): string | null {
  return getSession().token;
}

export function readIdentifiedTo(): string | null {
  return getSession().identifiedTo;
}

/** Stores what the login answered (spec §7: token and user are stored). */
export function saveSession(input: { token: string; user: TAuthUser; attestUserData?: unknown }) {
  write(STORAGE_KEYS.token, input.token);
  write(STORAGE_KEYS.user, JSON.stringify(input.user));
  if (input.attestUserData !== undefined) {
    write(STORAGE_KEYS.attestationUserData, JSON.stringify(input.attestUserData));
  }
  writeNotice(null);
  changed();
}

/** Merchant or agent mode (spec §6): the merchant the payer acts for, or null to stop. */
export function setIdentifiedTo(merchantId: string | null) {
  write(STORAGE_KEYS.identifiedTo, merchantId);
  changed();
}

/** spec §8 TOKEN_EXPIRED: clears the token, the user and the identified-to value. */
export function clearExpiredSession() {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.user, null);
  write(STORAGE_KEYS.identifiedTo, null);
  changed();
}

/** spec §6: a 401 on the accounts fetch clears the stored session. */
export function clearSession() {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.user, null);
  changed();
}

const endedListeners = new Set<() => void>();

/**
 * Calls back when the server said the stored session names nobody any more (a 401 that is not
 * TOKEN_EXPIRED's, which has its own path: call.ts), e.g. its sessions ended by an erasure. A
 * page that must then show itself signed out listens (/consents); the session stays stored
 * elsewhere, as spec §6 clears it on the accounts fetch alone.
 */
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => {
    endedListeners.delete(listener);
  };
}

/** The server refused the stored session: tells whoever listens (onSessionEnded). */
export function sessionEnded(): void {
  for (const listener of endedListeners) listener();
}

/** Sign-out, and spec §8 "404 on attestation session creation": user, token and attestation data. */
export function clearSignIn() {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.user, null);
  write(STORAGE_KEYS.attestationUserData, null);
  changed();
}

function readNotice(): string | null {
  try {
    return window.sessionStorage.getItem(NOTICE_KEY);
  } catch {
    return memory.get(NOTICE_KEY) ?? null;
  }
}

function writeNotice(message: string | null) {
  try {
    if (message === null) window.sessionStorage.removeItem(NOTICE_KEY);
    else window.sessionStorage.setItem(NOTICE_KEY, message);
  } catch {
    if (message === null) memory.delete(NOTICE_KEY);
    else memory.set(NOTICE_KEY, message);
  }
}

/** Leaves a notice for the sign-in page; it survives the redirect (session storage). */
export function setAuthNotice(message: string) {
  writeNotice(message);
  changed();
}

/** Whether a user is stored: the session then waits for the user's schema (setUserParser). */
export function hasStoredUser(): boolean {
  return read(STORAGE_KEYS.user) !== null;
}

/**
 * Whether the stored session signs the payer in, once read whole: a token, and a user that reads
 * (or is still waiting for its schema, unless that failed to load). A page drawn on the server,
 * which has no session, or hydrated before the user's schema came, is signed out until then.
 */
export function storedSignIn(): boolean {
  // As useSession decides: an empty token signs nobody in.
  if (!read(STORAGE_KEYS.token)) return false;
  if (!parseUser) return !userSchemaMissing && hasStoredUser();
  return getSession().user !== null;
}
