import { ZIdentifier, ZIsoDateTime } from '../../domain/schemas/fields';
import { AppError } from '../app-error';

/*
 * The cursor of a list ordered newest first by a time and then by id: it names the last row of
 * a page, opaquely, so the next page starts after it whatever was added meanwhile.
 */

export const encodeListCursor = (at: Date, id: string) =>
  Buffer.from(`${at.toISOString()}|${id}`, 'utf8').toString('base64url');

/**
 * A cursor this list gave; anything else is the caller's 400. Its parts are held to what the
 * list writes (a time from 2000 to 2100, an identifier): a time PostgreSQL cannot hold (year
 * -5000) or a NUL in the id made the list's query fail with a 500.
 */
export function decodeListCursor(cursor: string): { at: Date; id: string } {
  const [at = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!ZIsoDateTime.safeParse(at).success || !ZIdentifier.safeParse(id).success) {
    throw new AppError('VALIDATION_FAILED', 'cursor: must be a nextCursor this list gave');
  }
  return { at: new Date(at), id };
}
