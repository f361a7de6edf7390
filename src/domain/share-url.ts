/**
 * The 'Share Consent' QR link (spec §2 Desktop side panel): the same page URL with embed=false,
 * bg=FFFFFF and the clientId, so whoever scans it gets the standalone page on white. The other
 * colour parameters are dropped because bg would win over them anyway, and the fragment is page
 * state that should not travel.
 */
export function shareConsentUrl(pageUrl: string, clientId: string): string {
  const url = new URL(pageUrl);
  url.searchParams.set('embed', 'false');
  url.searchParams.set('bg', 'FFFFFF');
  url.searchParams.delete('bgColor');
  url.searchParams.delete('background');
  url.searchParams.set('clientId', clientId);
  url.hash = '';
  return url.toString();
}
