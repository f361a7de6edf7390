import { ERROR_CATALOGUE, type TErrorCode } from '../domain/errors';

/** A failure the client is told about: a catalogue code and, when more precise, its own message. */
export class AppError extends Error {
  constructor(
    readonly code: TErrorCode,
    readonly detail?: string,
  ) {
    super(detail ?? ERROR_CATALOGUE[code].message);
    this.name = 'AppError';
  }
}
