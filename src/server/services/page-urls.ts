/** The hosted consent page of a consent, as handed to merchants and printed for demos. */
export function consentPageUrl(publicUrl: string, consentId: string, clientId: string): string {
  const url = new URL(`/r/${encodeURIComponent(consentId)}`, publicUrl);
  url.searchParams.set('clientId', clientId);
  return url.toString();
}
