/*
 * The Monnify request and answer shapes the adapter reads, written from Monnify's API reference
 * ("Monnify API Reference" 2.0.0: TransactionStatusResponse, ChargeResponse, RefundDetails,
 * SingleTransferStatusResponse, …) and its webhook documentation. Only the fields we use;
 * Monnify sends more. Amounts are naira with kobo as decimals (numbers, or text in the status
 * answers).
 */

/** Every answer: `requestSuccessful` says whether Monnify did what was asked. */
export type TMonnifyEnvelope<TBody> = {
  requestSuccessful: boolean;
  responseMessage: string;
  responseCode: string | number;
  responseBody?: TBody;
};

export type TMonnifyLogin = { accessToken: string; expiresIn: number };

export type TMonnifyInitialized = { transactionReference: string; paymentReference: string };

/** Pay with bank transfer: the one-time account and how many seconds more it takes money. */
export type TMonnifyTransferAccount = {
  accountNumber: string;
  accountName: string;
  bankName: string;
  bankCode: string | number;
  accountDurationSeconds?: number;
  expiresOn?: string | null;
  transactionReference: string;
};

/** A card charge's answer: SUCCESS, FAILED, OTP_AUTHORIZATION_REQUIRED, BANK_AUTHORIZATION_REQUIRED. */
export type TMonnifyCharge = {
  status: string;
  message?: string | null;
  transactionReference: string;
  paymentReference?: string;
  otpData?: { id?: string; message?: string | null } | null;
  secure3dData?: { id?: string; redirectUrl?: string } | null;
};

export type TMonnifyCardDetails = {
  cardType?: string | null;
  last4?: string | null;
  bin?: string | null;
  cardToken?: string | null;
  reusable?: boolean;
  supportsTokenization?: boolean;
};

export type TMonnifyAccountDetails = {
  accountName?: string | null;
  accountNumber?: string | null;
  bankCode?: string | null;
};

/**
 * A transaction as the status calls answer it. paymentStatus: PAID, OVERPAID, PARTIALLY_PAID,
 * PENDING, EXPIRED, FAILED, and others (ABANDONED, CANCELLED, REVERSED).
 */
export type TMonnifyTransaction = {
  transactionReference: string;
  paymentReference: string;
  amountPaid: string | number;
  totalPayable: string | number;
  paymentStatus: string;
  paymentMethod?: string | null;
  currency?: string | null;
  createdOn?: string | null;
  paidOn?: string | null;
  cardDetails?: TMonnifyCardDetails | null;
  accountDetails?: TMonnifyAccountDetails | null;
  accountPayments?: TMonnifyAccountDetails[] | null;
  metaData?: Record<string, unknown> | null;
};

/** refundStatus: IN_PROGRESS, COMPLETED, FAILED. */
export type TMonnifyRefund = {
  refundReference: string;
  transactionReference: string;
  refundAmount: number;
  refundStatus: string;
  comment?: string | null;
};

/** status: SUCCESS, FAILED, REVERSED, PENDING, PENDING_AUTHORIZATION, OTP_EMAIL_DISPATCH_FAILED. */
export type TMonnifyDisbursement = {
  amount: number;
  reference: string;
  status: string;
  transactionReference?: string | null;
  transactionDescription?: string | null;
};

export type TMonnifyBank = { name: string; code: string };

export type TMonnifyValidatedAccount = {
  accountNumber: string;
  accountName: string;
  bankCode: string;
};

export type TMonnifyBvnMatch = { matchStatus: string };

/** A list Monnify answers a page at a time. */
export type TMonnifyPage<TItem> = {
  content: TItem[];
  last?: boolean;
  totalPages?: number;
};
