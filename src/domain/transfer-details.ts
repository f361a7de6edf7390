import { DEFAULT_TRANSFER_BANK_NAME } from './constants';

/** The bank shown in Pay with Transfer details: the account's bank, else 'Rubies MFB' (spec §2). */
export function transferBankName(bankName: string | null | undefined): string {
  return bankName?.trim() || DEFAULT_TRANSFER_BANK_NAME;
}
