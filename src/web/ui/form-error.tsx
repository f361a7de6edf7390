/** What went wrong, announced as it appears (role=alert); nothing while there is nothing. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
