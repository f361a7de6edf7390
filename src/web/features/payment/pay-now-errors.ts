import { PAGE_ERRORS } from '../../../domain/page-errors';
import { ApiError } from '../../api/api-error';

/** A call's failure in the catalogue's words, or the generic one when it never answered. */
export const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : PAGE_ERRORS.API_REQUEST_FAILED.message;
