import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPaystackNotice } from './paystack-notices';
import { toPaystackReference } from './paystack-references';

const KEY = 'sk_test_notices';
const signed = (payload: unknown, key = KEY) => {
  const body = Buffer.from(JSON.stringify(payload));
  return {
    body,
    headers: { 'x-paystack-signature': createHmac('sha512', key).update(body).digest('hex') },
  };
};
const bankCodeOf = (name: string) => (name === 'Guaranty Trust Bank' ? '058' : null);
const read = (payload: unknown) => readPaystackNotice(signed(payload), KEY, bankCodeOf);

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
    expect(readPaystackNotice(notice, 'sk_test_other', bankCodeOf)).toBeNull();
    expect(readPaystackNotice({ body: notice.body, headers: {} }, KEY, bankCodeOf)).toBeNull();
    expect(readPaystackNotice(signed('just text'), KEY, bankCodeOf)).toBeNull();
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
        bankCodeOf,
      ),
    ).toBeNull();
  });
});
