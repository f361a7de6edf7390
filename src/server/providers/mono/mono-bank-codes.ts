/*
 * Banks by CBN institution code (what this server names a bank by) and by NIBSS Instant Payment
 * code (what Mono's account-number lookup takes, `nip_code`: docs.mono.co "Account Number
 * Integration Guide", whose example is GTBank's 000013). A code of 6 digits is a NIP code already
 * (the microfinance and mobile-money banks have no older CBN code): it is passed as it is.
 */
const NIP_CODES: Readonly<Record<string, string>> = {
  '044': '000014', // Access Bank
  '058': '000013', // Guaranty Trust Bank
  '057': '000015', // Zenith Bank
  '011': '000016', // First Bank of Nigeria
  '033': '000004', // United Bank for Africa
  '032': '000018', // Union Bank
  '035': '000017', // Wema Bank
  '050': '000010', // Ecobank
  '070': '000007', // Fidelity Bank
  '214': '000003', // First City Monument Bank
  '221': '000012', // Stanbic IBTC
  '232': '000001', // Sterling Bank
  '076': '000008', // Polaris Bank
  '082': '000002', // Keystone Bank
  '215': '000011', // Unity Bank
  '301': '000006', // Jaiz Bank
  '101': '000023', // Providus Bank
};

/** The NIP code Mono's lookup takes for a bank; null for a bank this table does not know. */
export function nipCodeOf(institutionCode: string): string | null {
  if (/^\d{6}$/.test(institutionCode)) return institutionCode;
  return NIP_CODES[institutionCode] ?? null;
}
