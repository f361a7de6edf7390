import { DASHBOARD_PATH } from '../../domain/dashboard-roles';
import { PAYER_CONSENTS_PATH } from '../../domain/payer-pages';

/** The hosted consent page of a consent, as handed to merchants and printed for demos. */
export function consentPageUrl(publicUrl: string, consentId: string, clientId: string): string {
  const url = new URL(`/r/${encodeURIComponent(consentId)}`, publicUrl);
  url.searchParams.set('clientId', clientId);
  return url.toString();
}

/** The payer's own page (their consents and devices), as SMS about their account name it. */
export function accountPageUrl(publicUrl: string): string {
  return new URL(`${PAYER_CONSENTS_PATH}#devices`, publicUrl).toString();
}

/** The dashboard's Team page, where an owner removes a member. */
export function dashboardTeamUrl(publicUrl: string): string {
  return new URL(`${DASHBOARD_PATH}/team`, publicUrl).toString();
}
