/*
 * Which credentials a route's guard asks for, as the OpenAPI document states them
 * (src/server/openapi/openapi.ts): each guard hook is marked when it is made, and the document
 * reads the marks off the route's hooks, so what it says is what the route runs. The fuzz suite
 * checks the statement against what each route really refuses without credentials.
 */

/** The document's security schemes. */
export type TGuardKind = 'merchantBasic' | 'payerBearer' | 'operatorBearer';

const kinds = new WeakMap<object, TGuardKind>();

/** Marks `hook` as a guard of `kind` and gives it back. */
export function markGuard<T extends object>(kind: TGuardKind, hook: T): T {
  kinds.set(hook, kind);
  return hook;
}

/** The kind of the first guard among a route's hooks (one hook or a list), or null. */
export function guardKindOf(...hooks: unknown[]): TGuardKind | null {
  for (const hook of hooks.flat()) {
    const kind = typeof hook === 'function' ? kinds.get(hook) : undefined;
    if (kind) return kind;
  }
  return null;
}
