import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';

/*
 * Paystack's published request schemas (paystack-request-schemas.json, copied from
 * PaystackOSS/openapi at the commit it names), held against every JSON body the simulator is
 * sent: a body its operation's schema refuses is answered 400 and kept in the simulator's
 * `contractBreaches`, so a test of the adapter fails on a request Paystack's contract does not
 * take, whatever the simulator's own checks would have let through.
 *
 * The schemas list what an operation takes, not all it refuses (no `additionalProperties`): a
 * field they do not name (the Charge API's `card`, which the reference leaves to PCI-compliant
 * integrations) passes. A form body (application/x-www-form-urlencoded) is all text and is not
 * held against them.
 */

type TOperation = { operationId: string; body: object };

/** One request the published contract refuses: its operation and why. */
export type TContractBreach = { operation: string; errors: string };

// Read, not imported: the simulator also runs where JSON modules need an import attribute (the
// browser tests' own process).
const schemas = JSON.parse(
  readFileSync(new URL('./paystack-request-schemas.json', import.meta.url), 'utf8'),
) as { operations: Record<string, TOperation> };

const OPERATIONS = schemas.operations;

/** `POST /customer/{code}/identification` → a pattern matching `/customer/CUS_x/identification`. */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\//g, '\\/')}$`);

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

const checks = Object.entries(OPERATIONS).map(([operation, { body }]) => {
  const [method = '', path = ''] = operation.split(' ');
  return { operation, method, pattern: patternOf(path), validate: ajv.compile(body) };
});

/** The published operations the simulator holds bodies against, as `METHOD /path/{param}`. */
export const PUBLISHED_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

/** The published operation a request is for, or null when the copy holds none for it. */
export function publishedOperation(method: string, pathname: string): string | null {
  return checks.find((c) => c.method === method && c.pattern.test(pathname))?.operation ?? null;
}

const errorsOf = (validate: ValidateFunction) =>
  (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`).join('; ');

/** What the published schema of the request's operation refuses in its body; null: nothing. */
export function contractBreach(
  method: string,
  pathname: string,
  body: unknown,
): TContractBreach | null {
  const check = checks.find((c) => c.method === method && c.pattern.test(pathname));
  if (!check || check.validate(body)) return null;
  return { operation: check.operation, errors: errorsOf(check.validate) };
}
