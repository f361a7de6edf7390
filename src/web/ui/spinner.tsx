export function Spinner({ small = false }: { small?: boolean }) {
  return <span className={small ? 'spinner small' : 'spinner'} aria-hidden="true" />;
}
