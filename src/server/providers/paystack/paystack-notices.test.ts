import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPaystackNotice } from './paystack-notices';
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
    channel: 'bank_transfer',
    authorization: {
      sender_bank: senderBank,
      sender_bank_account_number: senderNumber,
      sender_name: 'ADAEZE OKAFOR',
    },
  },
});

describe('Paystack notices read', () => {
  it('name the account a transfer came from when Paystack gives its whole number at a bank we know', () => {
    expect(read(transfer('0123456789'))).toEqual({
      kind: 'transfer_received',
      reference: 'att_transfer_1',
      amount: 250_000,
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
    expect(read(transfer('XXXXXXX789'))).toMatchObject({ kind: 'transfer_received', sender: null });
    expect(read(transfer('0123456789', 'Some Bank'))).toMatchObject({ sender: null });
  });

  it('tell a debit from a card charge, by our metadata or the direct-debit channel', () => {
    const charge = (data: Record<string, unknown>) =>
      read({
        event: 'charge.success',
        data: { reference: toPaystackReference('att_x'), amount: 100, ...data },
      });
    expect(charge({ channel: 'card', metadata: { oya_channel: 'card' } })).toMatchObject({
      kind: 'charge',
      channel: 'card',
    });
    expect(charge({ channel: 'card', metadata: '{"oya_channel":"debit"}' })).toMatchObject({
      channel: 'debit',
    });
    expect(charge({ channel: 'direct_debit', metadata: '' })).toMatchObject({ channel: 'debit' });
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
