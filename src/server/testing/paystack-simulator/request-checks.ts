/**
 * How the simulator reads a request body and refuses what Paystack refuses. Messages are
 * Paystack's where its docs or answers show them; the others say so beside them.
 */

/** A refusal: answered with `status` and `{ status: false, message, ...extra }`. */
export class PaystackRefusal extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type TBody = Record<string, unknown>;

/**
 * The body as Paystack takes it: JSON, or a form (application/x-www-form-urlencoded, which the
 * OpenAPI description allows for every POST). An empty body is an empty object.
 */
export const parseBody = (raw: string, contentType: string | undefined): TBody => {
  if (raw.trim() === '') return {};
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // Paystack's wording for an unreadable body is not documented.
    throw new PaystackRefusal(400, 'Invalid JSON body');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PaystackRefusal(400, 'Invalid JSON body');
  }
  return parsed as TBody;
};

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A required text field (Paystack's "<field> is required" refusals; the wording is assumed). */
export const requiredString = (body: TBody, field: string): string => {
  const value = body[field];
  if (!present(value)) throw new PaystackRefusal(400, `${field} is required`);
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new PaystackRefusal(400, `${field} must be a string`);
  }
  return String(value);
};

export const optionalString = (body: TBody, field: string): string | undefined =>
  present(body[field]) ? requiredString(body, field) : undefined;

/**
 * An amount in the lowest unit (kobo): an integer, sent as a number or a string of digits, as
 * Paystack's own examples send it ("amount": "50000"). Anything else is "Invalid Amount Sent".
 */
export const amountIn = (body: TBody, field = 'amount'): number => {
  const value = body[field];
  if (!present(value)) throw new PaystackRefusal(400, 'Amount is required');
  const amount =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value.trim())
        ? Number(value.trim())
        : Number.NaN;
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new PaystackRefusal(400, 'Invalid Amount Sent');
  }
  return amount;
};

export const optionalAmount = (body: TBody, field = 'amount'): number | undefined =>
  present(body[field]) ? amountIn(body, field) : undefined;

export const emailIn = (body: TBody): string => {
  const email = requiredString(body, 'email');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new PaystackRefusal(400, 'Invalid Email Address Passed');
  }
  return email;
};

/** "Only -, ., = and alphanumeric characters allowed" (ChargeCreate.reference). */
export const REFERENCE_PATTERN = /^[A-Za-z0-9.=-]+$/;

export const optionalReference = (body: TBody): string | undefined => {
  const reference = optionalString(body, 'reference');
  if (reference !== undefined && !REFERENCE_PATTERN.test(reference)) {
    throw new PaystackRefusal(
      400,
      'Invalid transaction reference. Only -, ., = and alphanumeric characters allowed',
    );
  }
  return reference;
};

/** The documented refusal of a reference already used (TransactionInitializeBadRequestResponse). */
export const duplicateReference = () =>
  new PaystackRefusal(400, 'Duplicate Transaction Reference', {
    meta: { nextStep: 'Try and create the Transaction or Charge with a new reference' },
    type: 'validation_error',
    code: 'duplicate_reference',
  });

/** An object field; a JSON string of an object is read too (metadata is sent either way). */
export const optionalObject = (body: TBody, field: string): TBody | undefined => {
  const value = body[field];
  if (!present(value)) return undefined;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return parsed as TBody;
      }
    } catch {
      // refused below
    }
  }
  if (typeof value === 'object' && !Array.isArray(value)) return value as TBody;
  throw new PaystackRefusal(400, `${field} must be an object`);
};
