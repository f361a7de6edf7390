import type { TErrorCode } from '../../domain/errors';

/*
 * Examples of the document's operations, keyed "METHOD /path/{param}": named request bodies,
 * named answers per status, and the catalogue failures the operation answers besides the common
 * ones. routes/openapi.test.ts checks each against its operation's schema.
 */
export type TOperationExamples = {
  request?: Record<string, unknown>;
  responses?: Record<string, Record<string, unknown>>;
  failures?: TErrorCode[];
};

export const OPERATION_EXAMPLES: Record<string, TOperationExamples> = {};
