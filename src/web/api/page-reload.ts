/**
 * Whether the server answers now: a small file of the page's, asked past every cache. A page
 * opened again while the connection is still down would be the browser's offline page.
 */
export async function serverReachable(): Promise<boolean> {
  try {
    const answer = await fetch('/favicon.svg', { method: 'HEAD', cache: 'no-store' });
    return answer.ok;
  } catch {
    return false;
  }
}

/** Opens the page again, from the server. */
export function reloadPage(): void {
  window.location.reload();
}
