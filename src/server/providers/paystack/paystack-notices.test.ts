import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TPaystackTransaction } from './paystack-api';
import { readPaystackNotice, transactionNotice } from './paystack-notices';
import { payerOfPaystackEmail, paystackPayerEmail } from './paystack-provider';
import { toPaystackReference } from './paystack-references';

const KEY = 'sk_test_notices';
const signed = (payload: unknown, key = KEY) => {
  const body = Buffer.from(JSON.stringify(payload));
  return {
    body,
    headers: { 'x-paystack-signature': createHmac('sha512', key).update(body).digest('hex') },
  };
};
const names = {
  bankCodeOf: (name: string) => (name === 'Guaranty Trust Bank' ? '058' : null),
  payerOfEmail: payerOfPaystackEmail,
};
const read = (payload: unknown) => readPaystackNotice(signed(payload), KEY, names);

const transfer = (senderNumber: string, senderBank = 'Guaranty Trust Bank') => ({
  event: 'charge.success',
  data: {
    reference: toPaystackReference('att_transfer_1'),
    amount: 250_000,
    currency: 'NGN',
    channel: 'bank_transfer',
    authorization: {
      sender_bank: senderBank,
      sender_bank_account_number: senderNumber,
      sender_name: 'ADAEZE OKAFOR',
    },
  },
});

/** Paystack's record of a transaction (Verify Transaction), as the adapter asks for it. */
const record = (fields: Partial<TPaystackTransaction> = {}): TPaystackTransaction => ({
  status: 'success',
  reference: toPaystackReference('att_transfer_1'),
  amount: 250_000,
  currency: 'NGN',
  channel: 'bank_transfer',
  authorization: {
    sender_bank: 'Guaranty Trust Bank',
    sender_bank_account_number: '0123456789',
    sender_name: 'ADAEZE OKAFOR',
  },
  ...fields,
});
const fromRecord = (fields: Partial<TPaystackTransaction> = {}) =>
  transactionNotice('charge.success', record(fields), names.bankCodeOf);

describe('Paystack notices read', () => {
  it('read a charge.success as the transaction it names, whose record decides what arrived', () => {
    // Whatever amount, currency or status the notice itself says.
    const told = { ...transfer('0123456789').data, amount: 1, currency: 'USD', status: 'failed' };
    expect(read({ event: 'charge.success', data: told })).toEqual({
      kind: 'transaction_of',
      event: 'charge.success',
      providerReference: toPaystackReference('att_transfer_1'),
    });
  });

  it('name the account a transfer came from when Paystack gives its whole number at a bank we know', () => {
    expect(fromRecord()).toEqual({
      kind: 'transfer_received',
      reference: 'att_transfer_1',
      amount: 250_000,
      currency: 'NGN',
      sender: {
        institutionCode: '058',
        bankName: 'Guaranty Trust Bank',
        accountNumber: '0123456789',
        accountName: 'ADAEZE OKAFOR',
      },
      providerReference: toPaystackReference('att_transfer_1'),
    });
  });

  it('name no sender for a masked number or a bank we do not know', () => {
    const sender = (number: string, bank = 'Guaranty Trust Bank') => ({
      authorization: {
        sender_bank: bank,
        sender_bank_account_number: number,
        sender_name: 'ADAEZE OKAFOR',
      },
    });
    expect(fromRecord(sender('XXXXXXX789'))).toMatchObject({
      kind: 'transfer_received',
      sender: null,
    });
    expect(fromRecord(sender('0123456789', 'Some Bank'))).toMatchObject({ sender: null });
  });

  it('carry the currency the record names, and none where it names none', () => {
    expect(fromRecord({ currency: 'GHS' })).toMatchObject({ amount: 250_000, currency: 'GHS' });
    expect(fromRecord({ currency: undefined })).toMatchObject({ currency: '' });
    expect(fromRecord({ channel: 'card', currency: 'USD' })).toMatchObject({
      kind: 'charge',
      currency: 'USD',
    });
  });

  it('tell of a transfer only while the record says it arrived and is still there', () => {
    for (const status of ['ongoing', 'abandoned', 'reversed', 'failed']) {
      expect(fromRecord({ status })).toEqual({ kind: 'ignored', event: 'charge.success' });
    }
  });

  it('tell a debit from a card charge, by our metadata or the direct-debit channel, as taken or given back', () => {
    const charge = (fields: Partial<TPaystackTransaction>) =>
      fromRecord({ reference: toPaystackReference('att_x'), amount: 100, ...fields });
    expect(charge({ channel: 'card', metadata: { oya_channel: 'card' } })).toEqual({
      kind: 'charge',
      channel: 'card',
      reference: 'att_x',
      currency: 'NGN',
      outcome: {
        kind: 'taken',
        providerReference: toPaystackReference('att_x'),
        amount: 100,
        givenBack: false,
      },
    });
    expect(charge({ channel: 'card', metadata: '{"oya_channel":"debit"}' })).toMatchObject({
      channel: 'debit',
    });
    expect(charge({ channel: 'direct_debit', metadata: '' })).toMatchObject({ channel: 'debit' });
    expect(charge({ channel: 'card', status: 'reversed' })).toMatchObject({
      outcome: { kind: 'taken', givenBack: true },
    });
    expect(charge({ channel: 'card', status: 'ongoing' })).toEqual({
      kind: 'ignored',
      event: 'charge.success',
    });
  });

  it('acknowledge as nothing to do another system’s reference and events we do not act on', () => {
    expect(read({ event: 'charge.success', data: { reference: 'T12345.x', amount: 100 } })).toEqual(
      { kind: 'ignored', event: 'charge.success' },
    );
    expect(read({ event: 'subscription.create', data: {} })).toEqual({
      kind: 'ignored',
      event: 'subscription.create',
    });
  });

  it('read nothing without a good signature, or from a body that is not a notice', () => {
    const notice = signed(transfer('0123456789'));
    expect(readPaystackNotice(notice, 'sk_test_other', names)).toBeNull();
    expect(readPaystackNotice({ body: notice.body, headers: {} }, KEY, names)).toBeNull();
    expect(readPaystackNotice(signed('just text'), KEY, names)).toBeNull();
    const notJson = Buffer.from('{"event":');
    expect(
      readPaystackNotice(
        {
          body: notJson,
          headers: {
            'x-paystack-signature': createHmac('sha512', KEY).update(notJson).digest('hex'),
          },
        },
        KEY,
        names,
      ),
    ).toBeNull();
  });

  it('read a refund that ended or waits for an account as the transaction it names (Paystack names no refund id), ours or Paystack’s, and a refund on its way as nothing to do', () => {
    // As paystack.com/docs/payments/refunds shows a refund's notice.
    const refund = (event: string, transaction: string) => ({
      event,
      data: {
        status: event.slice('refund.'.length),
        transaction_reference: transaction,
        refund_reference: 'TRF_1q9kh2mwxsr9xqf',
        amount: '10000',
        currency: 'NGN',
        processor: 'mpgs_zenith',
        customer: { first_name: null, last_name: null, email: 'payers@example.com' },
        integration: 412829,
        domain: 'test',
      },
    });
    const ours = toPaystackReference('att_card_1');
    for (const event of ['refund.processed', 'refund.failed', 'refund.needs-attention']) {
      expect(read(refund(event, ours))).toEqual({
        kind: 'refunds_of',
        event,
        transactionReference: ours,
      });
      // A transaction named by Paystack's reference (a pushed terminal's, or another system's on
      // the same account): its refunds are read too, and only ours (by their note) are acted on.
      expect(read(refund(event, 'T685312322670591'))).toEqual({
        kind: 'refunds_of',
        event,
        transactionReference: 'T685312322670591',
      });
    }
    for (const event of ['refund.pending', 'refund.processing']) {
      expect(read(refund(event, ours))).toEqual({ kind: 'ignored', event });
    }
  });

  it("read a mandate the payer's bank confirmed, by Paystack's reference for it", () => {
    const active = {
      event: 'direct_debit.authorization.active',
      data: { reference: 'mandate_ref_1', authorization_code: 'AUTH_abc', active: true },
    };
    expect(read(active)).toEqual({
      kind: 'debit_mandate',
      providerReference: 'mandate_ref_1',
      authorization: 'AUTH_abc',
    });
    expect(read({ ...active, data: { ...active.data, active: false } })).toEqual({
      kind: 'ignored',
      event: 'direct_debit.authorization.active',
    });
  });

  it('read a customer validation as the answer about the account of our payer its email names', () => {
    const identified = (event: string, email: string) => ({
      event,
      data: {
        customer_code: 'CUS_x',
        email,
        identification: {
          country: 'NG',
          type: 'bank_account',
          bvn: '222*****011',
          account_number: '012****789',
          bank_code: '058',
        },
      },
    });
    expect(
      read(identified('customeridentification.success', paystackPayerEmail('pyr_A1-b'))),
    ).toEqual({
      kind: 'account_holder',
      payerId: 'pyr_A1-b',
      institutionCode: '058',
      accountNumberMask: '012****789',
      matches: true,
    });
    expect(
      read(identified('customeridentification.failed', paystackPayerEmail('pyr_A1-b'))),
    ).toMatchObject({
      kind: 'account_holder',
      matches: false,
    });
    // Another system's customer on the same Paystack account: not ours.
    expect(read(identified('customeridentification.success', 'someone@shop.ng'))).toEqual({
      kind: 'ignored',
      event: 'customeridentification.success',
    });
  });
});
