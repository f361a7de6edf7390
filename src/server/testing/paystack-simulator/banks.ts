import { PaystackRefusal } from './request-checks';
import { ok, type TAnswer, type TContext, type TRoute } from './simulator-state';

/**
 * The banks the simulator lists (GET /bank), the accounts it resolves (GET /bank/resolve) and
 * whose BVN holds each (Validate Customer). Codes are the Nigerian bank codes Paystack's List
 * Banks answers with; the list is short on purpose. The accounts and BVNs are the simulator's own.
 */

export type TSimBank = {
  id: number;
  name: string;
  slug: string;
  code: string;
  /** List Banks' available_for_direct_debit: a mandate can be set up on its accounts. */
  directDebit: boolean;
};

export const BANKS: TSimBank[] = [
  { id: 1, name: 'Access Bank', slug: 'access-bank', code: '044', directDebit: true },
  { id: 3, name: 'Ecobank Nigeria', slug: 'ecobank-nigeria', code: '050', directDebit: false },
  {
    id: 7,
    name: 'First Bank of Nigeria',
    slug: 'first-bank-of-nigeria',
    code: '011',
    directDebit: true,
  },
  {
    id: 9,
    name: 'Guaranty Trust Bank',
    slug: 'guaranty-trust-bank',
    code: '058',
    directDebit: true,
  },
  { id: 67, name: 'Kuda Bank', slug: 'kuda-bank', code: '50211', directDebit: false },
  {
    id: 171,
    name: 'OPay Digital Services Limited (OPay)',
    slug: 'paycom',
    code: '999992',
    directDebit: false,
  },
  {
    id: 16,
    name: 'United Bank For Africa',
    slug: 'united-bank-for-africa',
    code: '033',
    directDebit: false,
  },
  { id: 20, name: 'Wema Bank', slug: 'wema-bank', code: '035', directDebit: false },
  { id: 21, name: 'Zenith Bank', slug: 'zenith-bank', code: '057', directDebit: true },
];

export const bankByCode = (code: string) => BANKS.find((bank) => bank.code === code);

/** Accounts that resolve to a name, by bank code then account number. */
export const RESOLVABLE_ACCOUNTS: Record<string, Record<string, string>> = {
  '058': { '0123456789': 'ADAEZE OKAFOR', '0000000001': 'TUNDE BAKARE' },
  '044': { '0690000031': 'CHIAMAKA EZE', '0001234567': 'DOE JANE LOREN' },
  '011': { '3000000001': 'MUSA ABUBAKAR' },
  '057': { '2000000001': 'NGOZI OBI' },
  '50211': { '2000000002': 'KEMI ADEYEMI' },
};

export const resolveAccountName = (bankCode: string, accountNumber: string) =>
  RESOLVABLE_ACCOUNTS[bankCode]?.[accountNumber] ?? null;

/** The BVN most accounts that resolve are held under. */
export const DEFAULT_HOLDER_BVN = '22200000011';

/** The BVN of the accounts held by someone else: Access `0001234567`, Zenith `2000000001`. */
export const OTHER_HOLDER_BVN = '22200000022';

/**
 * Who holds each account that resolves, keyed `${bankCode}:${accountNumber}`, as Validate Customer
 * checks it: the holder's BVN.
 */
export const DEFAULT_ACCOUNT_HOLDERS: Record<string, string> = Object.fromEntries(
  Object.entries(RESOLVABLE_ACCOUNTS).flatMap(([bankCode, accounts]) =>
    Object.keys(accounts).map((accountNumber) => {
      const key = `${bankCode}:${accountNumber}`;
      const other = key === '044:0001234567' || key === '057:2000000001';
      return [key, other ? OTHER_HOLDER_BVN : DEFAULT_HOLDER_BVN];
    }),
  ),
);

/** A payout to this account number (at any bank) fails: transfer.failed instead of transfer.success. */
export const FAILING_PAYOUT_ACCOUNT = '0000000000';

const listBanks = (ctx: TContext): TAnswer => {
  const country = (ctx.query.get('country') ?? 'nigeria').toLowerCase();
  const banks = country === 'nigeria' ? BANKS : [];
  return ok(
    'Banks retrieved',
    banks.map((bank) => ({
      name: bank.name,
      slug: bank.slug,
      code: bank.code,
      longcode: '',
      gateway: null,
      pay_with_bank: false,
      supports_transfer: true,
      available_for_direct_debit: bank.directDebit,
      active: true,
      is_deleted: false,
      country: 'Nigeria',
      currency: 'NGN',
      type: 'nuban',
      id: bank.id,
      createdAt: '2016-07-14T10:04:29.000Z',
      updatedAt: '2020-02-18T08:06:44.000Z',
    })),
  );
};

const resolveAccount = (ctx: TContext): TAnswer => {
  const accountNumber = ctx.query.get('account_number') ?? '';
  const bankCode = ctx.query.get('bank_code') ?? '';
  const name = resolveAccountName(bankCode, accountNumber);
  const bank = bankByCode(bankCode);
  if (!name || !bank) {
    throw new PaystackRefusal(
      422,
      'Could not resolve account name. Check parameters or try again.',
    );
  }
  return ok('Account number resolved', {
    account_number: accountNumber,
    account_name: name,
    bank_id: bank.id,
  });
};

export const bankRoutes: TRoute[] = [
  { method: 'GET', path: /^\/bank$/, handle: listBanks },
  { method: 'GET', path: /^\/bank\/resolve$/, handle: resolveAccount },
];
