import type { TBank, TBanksPort } from '../payments';
import { paystackNoAnswer, paystackPath } from './paystack-calls';
import type { TPaystackBank, TPaystackCustomer, TPaystackResolvedAccount } from './paystack-api';
import { paystackPayerEmail, type TPaystack } from './paystack-shared';

/** How long the bank list is kept before it is asked for again. */
const BANK_LIST_TTL_MS = 6 * 60 * 60_000;

// Banks --------------------------------------------------------------------------------------

/** Paystack's Nigerian banks, kept for BANK_LIST_TTL_MS, with Paystack's own id of each. */
export async function paystackBankList(ps: TPaystack): Promise<readonly TBank[]> {
  const now = ps.clock.now().getTime();
  if (ps.bankList && now - ps.bankList.at < BANK_LIST_TTL_MS) return ps.bankList.banks;
  const found: TBank[] = [];
  const ids = new Map<string, number>();
  for await (const bank of ps.client.list<TPaystackBank>('/bank', { country: 'nigeria' })) {
    if (bank.active === false || bank.is_deleted === true) continue;
    if (found.some((known) => known.institutionCode === bank.code)) continue;
    if (bank.id !== undefined) ids.set(bank.code, bank.id);
    // A Paystack bank links an account by its direct-debit mandate (transactionService),
    // where it offers one; Paystack cannot say which account a card draws on, so no bank
    // offers linking by card here.
    found.push({
      institutionCode: bank.code,
      name: bank.name,
      integrations: bank.available_for_direct_debit === false ? [] : ['transactionService'],
    });
  }
  ps.bankList = { at: now, banks: found, ids };
  return found;
}

/** The code of a bank by its name, from the bank list already read; null if unknown. */
export const bankCodeOf = (ps: TPaystack, name: string) =>
  ps.bankList?.banks.find((bank) => bank.name.toLowerCase() === name.toLowerCase())
    ?.institutionCode ?? null;

/** List Banks, Resolve Account (no BVN) and customer validation of the holder's BVN. */
export function paystackBanks(ps: TPaystack): TBanksPort {
  return {
    provider: 'paystack',
    listBanks: () => paystackBankList(ps),
    lookupBank: async (institutionCode) =>
      (await paystackBankList(ps)).find((bank) => bank.institutionCode === institutionCode) ?? null,

    async nameEnquiry({ institutionCode, accountNumber }) {
      const bank = (await paystackBankList(ps)).find((b) => b.institutionCode === institutionCode);
      if (!bank) return null;
      const answer = await ps.client.read<TPaystackResolvedAccount>('/bank/resolve', {
        account_number: accountNumber,
        bank_code: institutionCode,
      });
      if (!answer.ok) return null;
      return {
        accountName: answer.data.account_name,
        // Paystack gives no enquiry reference: ours names what was asked, so a repeat is the same.
        nameEnquiryId: `psk_ne_${institutionCode}_${accountNumber}`,
        integrations: bank.integrations,
        // Resolve Account answers the holder's name only.
        bvn: null,
      };
    },

    // Customer validation: Paystack checks the BVN against the account, and answers by its
    // notice (customeridentification.success or .failed, paystack-notices.ts).
    async checkAccountHolder({ payerId, bvn, fullName, institutionCode, accountNumber }) {
      const names = fullName.trim().split(/\s+/);
      const firstName = names[0] ?? fullName;
      const lastName = names.length > 1 ? (names[names.length - 1] ?? firstName) : firstName;
      const customer = await ps.client.write<TPaystackCustomer>('/customer', {
        email: paystackPayerEmail(payerId),
        first_name: firstName,
        last_name: lastName,
      });
      if (!customer.ok) throw paystackNoAnswer('Create Customer', customer.message);
      const asked = await ps.client.write<unknown>(
        paystackPath`/customer/${customer.data.customer_code}/identification`,
        {
          country: 'NG',
          type: 'bank_account',
          account_number: accountNumber,
          bvn,
          bank_code: institutionCode,
          first_name: firstName,
          last_name: lastName,
        },
      );
      if (!asked.ok) throw paystackNoAnswer('Validate Customer', asked.message);
      return 'pending';
    },
  };
}
