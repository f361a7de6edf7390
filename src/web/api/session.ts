/** Browser storage keys of the payer's session (spec §3 "Browser storage"). */
export const STORAGE_KEYS = {
  token: 'paymonaToken',
  user: 'paymonaUser',
  attestUserData: 'attesttool_user_data',
  identifiedTo: 'oyaIdentifiedTo',
} as const;

export function readToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.token);
}
