/** Whether a database error (or one it caused) broke a unique index. */
export function isUniqueViolation(error: unknown): boolean {
  return hasCode(error, '23505');
}

/** The unique index a statement broke (23505), by name; null when it broke none. */
export function uniqueViolationOf(error: unknown): string | null {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/** A deadlock PostgreSQL broke by rolling back the statement that failed (40P01). */
export function isDeadlock(error: unknown): boolean {
  return hasCode(error, '40P01');
}

function hasCode(error: unknown, code: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}
