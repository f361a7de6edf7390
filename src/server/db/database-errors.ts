/** Whether a database error (or one it caused) broke a unique index. */
export function isUniqueViolation(error: unknown): boolean {
  return hasCode(error, '23505');
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
