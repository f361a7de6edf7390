/*
 * The few Paystack request and answer shapes the adapter reads, written from Paystack's OpenAPI
 * description (ChargeCreate, ChargeCreateResponse, VerifyResponse, TransferInitiate, …) and its
 * Charge guide for what that description leaves out (the card, bank_transfer and display_text
 * fields). Only the fields we use; Paystack sends more.
 */

/** Every answer: `status` says whether Paystack did what was asked; `message` says why not. */
export type TPaystackEnvelope<TData> = {
  status: boolean;
  message: string;
  data?: TData;
  meta?: TPaystackPageMeta;
};

export type TPaystackPageMeta = { page?: number; pageCount?: number; next?: string | null };

/** A card or bank authorisation, as a charge and a verify answer carry it. */
export type TPaystackAuthorization = {
  authorization_code?: string | null;
  bin?: string | null;
  last4?: string | null;
  brand?: string | null;
  reusable?: boolean;
  channel?: string;
  /** Pay with transfer: the account the money came from. */
  sender_bank?: string | null;
  sender_bank_account_number?: string | null;
  sender_name?: string | null;
};

/**
 * Where a charge stands (POST /charge, the submit_* calls, GET /charge/{reference}):
 * 'success' | 'failed' | 'pending' | 'send_pin' | 'send_otp' | 'send_phone' | 'send_birthday' |
 * 'send_address' | 'open_url' | 'pending_bank_transfer'.
 */
export type TPaystackCharge = {
  status: string;
  reference: string;
  amount?: number;
  /** ISO 4217: the amount is in its minor unit. */
  currency?: string;
  channel?: string;
  /** The issuer's or Paystack's words for the payer (an OTP step's prompt). */
  display_text?: string | null;
  gateway_response?: string | null;
  message?: string | null;
  /** open_url: the 3-D Secure page. */
  url?: string | null;
  authorization?: TPaystackAuthorization | null;
  metadata?: unknown;
  /** pending_bank_transfer: the one-time account. */
  account_name?: string;
  account_number?: string;
  bank?: { name?: string; slug?: string } | null;
  account_expires_at?: string | null;
};

/**
 * A transaction (GET /transaction/verify/{reference}, GET /transaction): 'success' | 'failed' |
 * 'abandoned' | 'ongoing' | 'pending' | 'processing' | 'queued' | 'reversed'.
 */
export type TPaystackTransaction = {
  id?: number;
  status: string;
  reference: string;
  amount: number;
  /** ISO 4217: the amount is in its minor unit. */
  currency?: string;
  channel?: string;
  gateway_response?: string | null;
  authorization?: TPaystackAuthorization | null;
  metadata?: unknown;
  /** When Paystack made it (ISO 8601): a refund of it can only follow. */
  created_at?: string | null;
};

export type TPaystackBank = {
  /** Paystack's own id of the bank (what Retry Refund's `bank_id` names). */
  id?: number;
  name: string;
  code: string;
  active?: boolean;
  is_deleted?: boolean | null;
  currency?: string;
  /** Whether its accounts can be mandated for direct debit (Initialize Authorization). */
  available_for_direct_debit?: boolean;
};

export type TPaystackCustomer = { customer_code: string; email: string };

/** Initialize Authorization (direct debit): where the payer approves, and Paystack's reference. */
export type TPaystackMandateOpened = {
  redirect_url: string;
  access_code: string;
  reference: string;
};

/** Verify Authorization: the authorisation the payer's bank confirmed. */
export type TPaystackMandate = { authorization_code: string; channel: string; active: boolean };

export type TPaystackResolvedAccount = { account_number: string; account_name: string };

export type TPaystackRecipient = { recipient_code: string };

/** 'success' | 'failed' | 'pending' | 'otp' | 'received' | 'queued' | 'processing' | 'reversed' | 'abandoned' | 'rejected' | 'blocked'. */
export type TPaystackTransfer = {
  status: string;
  reference: string;
  amount: number;
  transfer_code?: string;
  reason?: string | null;
};

/** 'pending' | 'processing' | 'processed' | 'failed' | 'needs-attention'. */
export type TPaystackRefund = {
  id: number;
  status: string;
  amount: number;
  merchant_note?: string | null;
  transaction?: { id?: number; reference?: string } | number | string | null;
  transaction_reference?: string | null;
};
