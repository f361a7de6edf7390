/** Sign-in page (spec §2: /login and /). */
export function LoginPage() {
  return (
    <main className="page-center">
      <h1>Sign in</h1>
    </main>
  );
}
