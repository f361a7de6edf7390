import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaystackSimulator, type TPaystackSimulator } from './paystack-simulator';

const SECRET = 'sk_test_paystack_simulator_tests';

/** Our side of the notices: keeps each one as it arrived and answers the status it is told to. */
const noticeReceiver = async () => {
  const received: Array<{ raw: string; signature: string | undefined }> = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        signature: request.headers['x-paystack-signature'] as string | undefined,
      });
      response.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/paystack`,
    received,
    /** The next notices are answered with these statuses, in order (then 200). */
    answerNext: (...statuses: number[]) => answers.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

let receiver: Awaited<ReturnType<typeof noticeReceiver>>;
let simulator: TPaystackSimulator;
let counter = 0;
const newReference = () => `ref-${Date.now()}-${++counter}`;

const call = async (method: string, path: string, body?: unknown, key = SECRET) => {
  const answer = await fetch(`${simulator.url}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, json: await answer.json() };
};

const card = (number: string, cvv = '408') => ({
  number,
  cvv,
  expiry_month: '12',
  expiry_year: '2099',
});

const chargeCard = (number: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/charge', {
    email: 'payer@example.com',
    amount: 250_000,
    reference: newReference(),
    card: card(number),
    ...extra,
  });

/** The notices of one event whose data names this reference, as our server received them. */
const noticesFor = (event: string, reference: string) =>
  receiver.received.filter((notice) => {
    const parsed = JSON.parse(notice.raw);
    return (
      parsed.event === event &&
      (parsed.data.reference === reference || parsed.data.transaction_reference === reference)
    );
  });

beforeAll(async () => {
  receiver = await noticeReceiver();
  simulator = await startPaystackSimulator({
    secretKey: SECRET,
    noticeUrl: receiver.url,
    noticeRetryDelaysMs: [10, 10, 10],
    // What Paystack itself takes and how it words a refusal, beyond its published schemas.
    checkPublishedSchemas: false,
  });
});

afterAll(async () => {
  await simulator.close();
  await receiver.close();
});

describe('keys and envelopes', () => {
  it('refuses a missing or wrong bearer with 401 Invalid key, and records the request as unauthorized', async () => {
    const missing = await call('GET', '/bank', undefined, '');
    const wrong = await call('GET', '/bank', undefined, 'sk_test_wrong');
    expect(missing).toEqual({ status: 401, json: { status: false, message: 'Invalid key' } });
    expect(wrong).toEqual({ status: 401, json: { status: false, message: 'Invalid key' } });
    expect(simulator.requests.filter((r) => r.path === '/bank').map((r) => r.authorized)).toEqual([
      false,
      false,
    ]);
  });

  it('lists banks and resolves a known account, refusing an unknown one with 422', async () => {
    const banks = await call('GET', '/bank?country=nigeria');
    expect(banks.status).toBe(200);
    expect(banks.json).toMatchObject({ status: true, message: 'Banks retrieved' });
    expect(banks.json.data).toContainEqual(
      expect.objectContaining({ name: 'Guaranty Trust Bank', code: '058' }),
    );
    const resolved = await call('GET', '/bank/resolve?account_number=0123456789&bank_code=058');
    expect(resolved.json).toEqual({
      status: true,
      message: 'Account number resolved',
      data: { account_number: '0123456789', account_name: 'ADAEZE OKAFOR', bank_id: 9 },
    });
    const unknown = await call('GET', '/bank/resolve?account_number=9999999999&bank_code=058');
    expect(unknown.status).toBe(422);
    expect(unknown.json.status).toBe(false);
    expect(unknown.json.message).toMatch(/Could not resolve account name/);
  });

  it('refuses bodies Paystack refuses: no email, a fractional amount, a reference with other characters', async () => {
    const base = { email: 'payer@example.com', amount: 10_000, card: card('4084084084084081') };
    const noEmail = await call('POST', '/charge', { ...base, email: undefined });
    const badAmount = await call('POST', '/charge', { ...base, amount: '100.50' });
    const badReference = await call('POST', '/charge', { ...base, reference: 'has space' });
    for (const answer of [noEmail, badAmount, badReference]) {
      expect(answer.status).toBe(400);
      expect(answer.json.status).toBe(false);
    }
    expect(badAmount.json.message).toBe('Invalid Amount Sent');
  });

  it('takes the amount as a string of digits, as Paystack does', async () => {
    const answer = await call('POST', '/charge', {
      email: 'payer@example.com',
      amount: '50000',
      card: card('4084084084084081'),
    });
    expect(answer.json.data).toMatchObject({ status: 'success', amount: 50_000 });
  });
});

describe('card charges', () => {
  it('charges the no-validation card at once, with a reusable authorization and a signed charge.success', async () => {
    const answer = await chargeCard('4084084084084081');
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: true, message: 'Charge attempted' });
    expect(answer.json.data).toMatchObject({
      status: 'success',
      amount: 250_000,
      channel: 'card',
      gateway_response: 'Approved',
      authorization: {
        bin: '408408',
        last4: '4081',
        exp_month: '12',
        exp_year: '2099',
        brand: 'visa',
        reusable: true,
        authorization_code: expect.stringMatching(/^AUTH_/),
        signature: expect.stringMatching(/^SIG_/),
      },
    });
    await expect
      .poll(() => noticesFor('charge.success', answer.json.data.reference).length)
      .toBe(1);
  });

  it('walks the Verve card through send_pin, send_otp and success', async () => {
    const started = await chargeCard('507850785078507812');
    const reference = started.json.data.reference;
    expect(started.json.data).toMatchObject({ reference, status: 'send_pin' });

    const afterPin = await call('POST', '/charge/submit_pin', { pin: '1111', reference });
    expect(afterPin.json.data).toMatchObject({ reference, status: 'send_otp' });

    const afterOtp = await call('POST', '/charge/submit_otp', { otp: '123456', reference });
    expect(afterOtp.json.data).toMatchObject({ reference, status: 'success' });

    const verified = await call('GET', `/transaction/verify/${reference}`);
    expect(verified.json).toMatchObject({
      status: true,
      message: 'Verification successful',
      data: { reference, status: 'success', amount: 250_000 },
    });
  });

  it('takes the PIN with the charge instead of asking for it', async () => {
    const started = await chargeCard('507850785078507812', { pin: '1111' });
    expect(started.json.data.status).toBe('send_otp');
  });

  it('fails the charge on a wrong OTP and refuses an OTP the charge is not waiting for', async () => {
    const started = await chargeCard('5060666666666666666');
    const reference = started.json.data.reference;
    const early = await call('POST', '/charge/submit_otp', { otp: '123456', reference });
    expect(early.status).toBe(400);
    await call('POST', '/charge/submit_pin', { pin: '1234', reference });
    const wrong = await call('POST', '/charge/submit_otp', { otp: '000000', reference });
    expect(wrong.json.data).toMatchObject({ reference, status: 'failed' });
    const checked = await call('GET', `/charge/${reference}`);
    expect(checked.json.data.status).toBe('failed');
  });

  it('asks for the phone, then the OTP, on the PIN+phone+OTP card; and a birthday on the birthday card', async () => {
    const phoneCard = await chargeCard('507850785078507804', { pin: '0000' });
    const reference = phoneCard.json.data.reference;
    expect(phoneCard.json.data.status).toBe('send_phone');
    const afterPhone = await call('POST', '/charge/submit_phone', {
      phone: '08012345678',
      reference,
    });
    expect(afterPhone.json.data.status).toBe('send_otp');

    const birthdayCard = await chargeCard('5399830000000008');
    expect(birthdayCard.json.data.status).toBe('send_birthday');
    const afterBirthday = await call('POST', '/charge/submit_birthday', {
      birthday: '1990-01-01',
      reference: birthdayCard.json.data.reference,
    });
    expect(afterBirthday.json.data.status).toBe('success');
  });

  it('declines the declined and insufficient-funds cards, and sends no notice for them', async () => {
    const declined = await chargeCard('4084080000005408');
    const poor = await chargeCard('4084080000670037');
    expect(declined.json.data).toMatchObject({ status: 'failed', gateway_response: 'Declined' });
    expect(poor.json.data).toMatchObject({
      status: 'failed',
      gateway_response: 'Insufficient Funds',
    });
    expect(declined.json.data.authorization).toEqual({});
    await simulator.idle();
    expect(noticesFor('charge.success', declined.json.data.reference)).toEqual([]);
  });

  it('answers pending on the timeout card, and the check by reference then says failed', async () => {
    const pending = await chargeCard('5060660000000064');
    expect(pending.json.data.status).toBe('pending');
    const checked = await call('GET', `/charge/${pending.json.data.reference}`);
    expect(checked.json.data).toMatchObject({ status: 'failed', gateway_response: 'Timeout' });
  });

  it('refuses a second charge with the same reference as Paystack does', async () => {
    const reference = newReference();
    await chargeCard('4084084084084081', { reference });
    const again = await chargeCard('4084084084084081', { reference });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({
      status: false,
      message: 'Duplicate Transaction Reference',
      code: 'duplicate_reference',
    });
  });

  it('answers 404 Transaction reference not found for an unknown reference', async () => {
    const answer = await call('GET', '/transaction/verify/never-charged');
    expect(answer).toEqual({
      status: 404,
      json: { status: false, message: 'Transaction reference not found' },
    });
  });
});

describe('lists', () => {
  it('lists transactions newest first, a page at a time, narrowed by status', async () => {
    const paid = await chargeCard('4084084084084081');
    const declined = await chargeCard('4084080000005408');
    const first = await call('GET', '/transaction?perPage=1&page=1');
    expect(first.status).toBe(200);
    expect(first.json.data.map((t: { reference: string }) => t.reference)).toEqual([
      declined.json.data.reference,
    ]);
    expect(first.json.meta).toMatchObject({ perPage: 1, page: 1 });
    expect(first.json.meta.pageCount).toBeGreaterThanOrEqual(2);
    const second = await call('GET', '/transaction?perPage=1&page=2');
    expect(second.json.data[0].reference).toBe(paid.json.data.reference);
    const successes = await call('GET', '/transaction?status=success&perPage=100');
    const references = successes.json.data.map((t: { reference: string }) => t.reference);
    expect(references).toContain(paid.json.data.reference);
    expect(references).not.toContain(declined.json.data.reference);
  });
});

describe('the refunds list', () => {
  it('lists refunds newest first, a page at a time, narrowed by transaction and by when they were made', async () => {
    let at = new Date('2030-03-01T10:00:00Z');
    const timed = await startPaystackSimulator({ secretKey: SECRET, clock: () => at });
    const timedCall = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${timed.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: answer.status, json: await answer.json() };
    };
    const paid = async () =>
      (
        await timedCall('POST', '/charge', {
          email: 'payer@example.com',
          amount: 100_000,
          reference: newReference(),
          card: card('4084084084084081'),
        })
      ).json.data.reference as string;
    const refunded = async (transaction: string, amount: number) =>
      (await timedCall('POST', '/refund', { transaction, amount })).json.data.id as number;
    const ids = (answer: { json: { data: Array<{ id: number }> } }) =>
      answer.json.data.map((refund) => refund.id);
    try {
      const one = await paid();
      const other = await paid();
      const early = await refunded(one, 10_000);
      at = new Date('2030-03-02T10:00:00Z');
      const ofOther = await refunded(other, 10_000);
      at = new Date('2030-03-03T10:00:00Z');
      const late = await refunded(one, 20_000);

      expect(ids(await timedCall('GET', '/refund'))).toEqual([late, ofOther, early]);
      const firstPage = await timedCall('GET', '/refund?perPage=2&page=1');
      expect(ids(firstPage)).toEqual([late, ofOther]);
      expect(firstPage.json.meta).toMatchObject({ total: 3, perPage: 2, page: 1, pageCount: 2 });
      expect(ids(await timedCall('GET', '/refund?perPage=2&page=2'))).toEqual([early]);
      expect(ids(await timedCall('GET', `/refund?transaction=${one}`))).toEqual([late, early]);
      // from and to are both included.
      const window = 'from=2030-03-02T10:00:00.000Z&to=2030-03-03T10:00:00.000Z';
      expect(ids(await timedCall('GET', `/refund?${window}`))).toEqual([late, ofOther]);
      expect(ids(await timedCall('GET', `/refund?transaction=${one}&${window}`))).toEqual([late]);
      expect(ids(await timedCall('GET', '/refund?to=2030-03-01T12:00:00Z'))).toEqual([early]);
      expect((await timedCall('GET', '/refund?from=yesterday')).status).toBe(400);
    } finally {
      await timed.close();
    }
  });
});

describe('3-D Secure', () => {
  it('gives an open_url, and the payer approving it pays the charge and sends a charge.success our key verifies', async () => {
    const started = await chargeCard('4084080000000409');
    const reference = started.json.data.reference;
    expect(started.json.data).toMatchObject({ reference, status: 'open_url' });
    const page = await fetch(started.json.data.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<button type="submit" name="answer" value="approve">Approve</button>');
    expect((await call('GET', `/transaction/verify/${reference}`)).json.data.status).toBe(
      'ongoing',
    );

    await simulator.answerThreeDs(reference, true);

    const verified = await call('GET', `/transaction/verify/${reference}`);
    expect(verified.json.data).toMatchObject({
      status: 'success',
      authorization: { last4: '0409' },
    });
    const [notice] = noticesFor('charge.success', reference);
    expect(notice).toBeDefined();
    const expected = createHmac('sha512', SECRET).update(notice!.raw).digest('hex');
    expect(notice!.signature).toBe(expected);
    const recorded = simulator.notices.find((n) => n.body === notice!.raw);
    expect(recorded).toMatchObject({ event: 'charge.success', signature: expected, status: 200 });
  });

  it('is answered on its page too: Decline fails the charge and ends on the close page', async () => {
    const started = await chargeCard('4084080000000409');
    const reference = started.json.data.reference;
    const answered = await fetch(started.json.data.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'answer=decline',
      redirect: 'manual',
    });
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe(`${simulator.url}/close`);
    expect(await (await fetch(`${simulator.url}/close`)).text()).toContain(
      'You can close this page',
    );
    expect((await call('GET', `/transaction/verify/${reference}`)).json.data.status).toBe('failed');
  });
});

describe('pay with transfer', () => {
  it('issues a one-time account, and a transfer of the amount into it sends charge.success with the sender', async () => {
    const reference = newReference();
    const started = await call('POST', '/charge', {
      email: 'payer@example.com',
      amount: 180_000,
      reference,
      bank_transfer: { account_expires_at: '2099-01-01T00:00:00Z' },
    });
    expect(started.json.data).toMatchObject({
      reference,
      status: 'pending_bank_transfer',
      account_name: expect.any(String),
      account_number: expect.stringMatching(/^\d{10}$/),
      bank: { name: 'Test Bank', slug: 'test-bank' },
      account_expires_at: '2099-01-01T00:00:00.000Z',
    });

    await simulator.payTransfer(started.json.data.account_number, 180_000, {
      accountNumber: '0690000031',
      accountName: 'CHIAMAKA EZE',
      bankCode: '044',
    });

    const [notice] = noticesFor('charge.success', reference);
    expect(JSON.parse(notice!.raw).data).toMatchObject({
      status: 'success',
      channel: 'bank_transfer',
      amount: 180_000,
      authorization: {
        channel: 'bank_transfer',
        sender_name: 'CHIAMAKA EZE',
        sender_bank: 'Access Bank',
        sender_bank_account_number: 'XXXXXXX031',
      },
    });
    expect((await call('GET', `/transaction/verify/${reference}`)).json.data.status).toBe(
      'success',
    );
  });

  it('answers a wrong amount with bank.transfer.rejected and leaves the charge unpaid', async () => {
    const started = await call('POST', '/charge', {
      email: 'payer@example.com',
      amount: 180_000,
      reference: newReference(),
      bank_transfer: {},
    });
    await simulator.payTransfer(started.json.data.account_number, 100_000);
    const rejected = receiver.received
      .map((notice) => JSON.parse(notice.raw))
      .filter((notice) => notice.event === 'bank.transfer.rejected');
    expect(rejected.at(-1).data.bank_transfer).toMatchObject({
      amount: '100000',
      message_type: 'INCORRECT_AMOUNT',
    });
    const verified = await call('GET', `/transaction/verify/${started.json.data.reference}`);
    expect(verified.json.data.status).toBe('ongoing');
  });
});

describe('saved cards', () => {
  it('charges an authorization it issued, and refuses one it did not', async () => {
    const first = await chargeCard('4084084084084081');
    const code = first.json.data.authorization.authorization_code;
    const again = await call('POST', '/transaction/charge_authorization', {
      authorization_code: code,
      email: 'payer@example.com',
      amount: 70_000,
      reference: newReference(),
    });
    expect(again.json.data).toMatchObject({ status: 'success', amount: 70_000 });
    expect(again.json.data.authorization.authorization_code).toBe(code);

    simulator.declineAuthorization(code);
    const declined = await call('POST', '/transaction/charge_authorization', {
      authorization_code: code,
      email: 'payer@example.com',
      amount: 70_000,
    });
    expect(declined.json.data).toMatchObject({
      status: 'failed',
      gateway_response: 'Insufficient Funds',
    });

    const unknown = await call('POST', '/transaction/charge_authorization', {
      authorization_code: 'AUTH_never',
      email: 'payer@example.com',
      amount: 70_000,
    });
    expect(unknown.status).toBe(400);
  });
});

describe('refunds', () => {
  it('refunds in parts up to the amount, refuses a third, and sends refund.processed for each', async () => {
    const paid = await chargeCard('4084084084084081', { amount: 100_000 });
    const reference = paid.json.data.reference;
    const first = await call('POST', '/refund', { transaction: reference, amount: 60_000 });
    expect(first.json).toMatchObject({
      status: true,
      message: 'Refund has been queued for processing',
      data: { status: 'pending', amount: 60_000, transaction: { reference } },
    });
    const second = await call('POST', '/refund', {
      transaction: String(paid.json.data.id),
      amount: 40_000,
    });
    expect(second.json.data).toMatchObject({ status: 'pending', amount: 40_000 });
    const third = await call('POST', '/refund', { transaction: reference, amount: 1 });
    expect(third.status).toBe(400);
    expect(third.json.status).toBe(false);

    await expect.poll(() => noticesFor('refund.processed', reference).length).toBe(2);
    const fetched = await call('GET', `/refund/${first.json.data.id}`);
    expect(fetched.json.data).toMatchObject({ status: 'processed', amount: 60_000 });
    const listed = await call('GET', `/refund?transaction=${reference}`);
    expect(listed.json.data.map((refund: { amount: number }) => refund.amount)).toEqual([
      40_000, 60_000,
    ]);
    expect((await call('GET', `/transaction/verify/${reference}`)).json.data.status).toBe(
      'reversed',
    );
  });

  it('refuses a refund beyond the amount left', async () => {
    const paid = await chargeCard('4084084084084081', { amount: 100_000 });
    const tooMuch = await call('POST', '/refund', {
      transaction: paid.json.data.reference,
      amount: 100_001,
    });
    expect(tooMuch.status).toBe(400);
  });

  it('ends a refund failed when told to, with refund.failed', async () => {
    const paid = await chargeCard('4084084084084081', { amount: 100_000 });
    simulator.failNextRefund();
    await call('POST', '/refund', { transaction: paid.json.data.reference });
    await expect.poll(() => noticesFor('refund.failed', paid.json.data.reference).length).toBe(1);
  });
});

describe('a refund that needs attention', () => {
  it("waits for the customer's account, refuses a retry of any other refund, then is processed", async () => {
    const paid = await chargeCard('4084084084084081', { amount: 90_000 });
    const reference = paid.json.data.reference;
    simulator.nextRefundNeedsAttention();
    const created = await call('POST', '/refund', {
      transaction: reference,
      merchant_note: 'our-refund-0001',
    });
    await expect.poll(() => noticesFor('refund.needs-attention', reference).length).toBe(1);
    const [notice] = noticesFor('refund.needs-attention', reference);
    expect(JSON.parse(notice!.raw).data).toMatchObject({
      status: 'needs-attention',
      merchant_note: 'our-refund-0001',
    });

    const other = await chargeCard('4084084084084081', { amount: 10_000 });
    const normal = await call('POST', '/refund', { transaction: other.json.data.reference });
    await expect
      .poll(() => noticesFor('refund.processed', other.json.data.reference).length)
      .toBe(1);
    const refused = await call(
      'POST',
      `/refund/retry_with_customer_details/${normal.json.data.id}`,
      {
        refund_account_details: { currency: 'NGN', account_number: '0123456789', bank_id: '9' },
      },
    );
    expect(refused.status).toBe(422);

    const retried = await call(
      'POST',
      `/refund/retry_with_customer_details/${created.json.data.id}`,
      {
        refund_account_details: { currency: 'NGN', account_number: '0123456789', bank_id: '9' },
      },
    );
    expect(retried.json).toMatchObject({
      status: true,
      message: 'Refund retried and has been queued for processing',
      data: { status: 'processing' },
    });
    await expect.poll(() => noticesFor('refund.processed', reference).length).toBe(1);
    const listed = await call('GET', `/refund?transaction=${reference}`);
    expect(listed.json.data).toEqual([
      expect.objectContaining({ status: 'processed', merchant_note: 'our-refund-0001' }),
    ]);
  });
});

describe('payouts', () => {
  const newRecipient = (name: string, accountNumber: string) =>
    call('POST', '/transferrecipient', {
      type: 'nuban',
      name,
      account_number: accountNumber,
      bank_code: '058',
    });

  it('pays a recipient: pending, then transfer.success, verify by reference says success, and a reversal says so', async () => {
    const recipient = await newRecipient('Adaeze Okafor', '0123456789');
    expect(recipient.json.data).toMatchObject({
      recipient_code: expect.stringMatching(/^RCP_/),
      details: { account_number: '0123456789', bank_code: '058', bank_name: 'Guaranty Trust Bank' },
    });
    const reference = `payout_${Date.now()}_0001`;
    const transfer = await call('POST', '/transfer', {
      source: 'balance',
      amount: 500_000,
      recipient: recipient.json.data.recipient_code,
      reference,
      reason: 'Merchant payout',
    });
    expect(transfer.json).toMatchObject({
      status: true,
      message: 'Transfer has been queued',
      data: { status: 'pending', reference, amount: 500_000 },
    });
    await expect.poll(() => noticesFor('transfer.success', reference).length).toBe(1);
    const verified = await call('GET', `/transfer/verify/${reference}`);
    expect(verified.json.data).toMatchObject({ status: 'success', reference });

    await simulator.reverseTransfer(reference);
    const [reversed] = noticesFor('transfer.reversed', reference);
    expect(JSON.parse(reversed!.raw).data).toMatchObject({ status: 'reversed', amount: 500_000 });
    expect((await call('GET', `/transfer/verify/${reference}`)).json.data.status).toBe('reversed');
  });

  it('fails a payout to the failing account with transfer.failed, and refuses an unknown recipient', async () => {
    const recipient = await newRecipient('Nobody', '0000000000');
    const reference = `payout_${Date.now()}_0002`;
    await call('POST', '/transfer', {
      source: 'balance',
      amount: 1_000,
      recipient: recipient.json.data.recipient_code,
      reference,
    });
    await expect
      .poll(async () => (await call('GET', `/transfer/verify/${reference}`)).json.data.status)
      .toBe('failed');
    const unknown = await call('POST', '/transfer', {
      source: 'balance',
      amount: 1_000,
      recipient: 'RCP_unknown',
      reference: `payout_${Date.now()}_0003`,
    });
    expect(unknown.json).toMatchObject({
      status: false,
      message: 'Recipient specified is invalid',
    });
  });
});

describe('direct debit', () => {
  it('initializes a mandate the payer approves, then charges it: processing, then charge.success', async () => {
    const started = await call('POST', '/customer/authorization/initialize', {
      email: 'debtor@example.com',
      channel: 'direct_debit',
      account: { number: '0123456789', bank_code: '058' },
    });
    const { reference, redirect_url: redirectUrl } = started.json.data;
    expect((await fetch(redirectUrl)).status).toBe(200);
    expect((await call('GET', `/customer/authorization/verify/${reference}`)).status).toBe(404);

    await simulator.answerMandate(reference, true);

    const verified = await call('GET', `/customer/authorization/verify/${reference}`);
    expect(verified.json.data).toMatchObject({ channel: 'direct_debit', active: true });
    const active = receiver.received
      .map((notice) => JSON.parse(notice.raw))
      .find(
        (notice) =>
          notice.event === 'direct_debit.authorization.active' &&
          notice.data.reference === reference,
      );
    expect(active.data.authorization_code).toBe(verified.json.data.authorization_code);

    const debitReference = newReference();
    const debit = await call('POST', '/transaction/charge_authorization', {
      authorization_code: verified.json.data.authorization_code,
      email: 'debtor@example.com',
      amount: 30_000,
      reference: debitReference,
    });
    expect(debit.json.data).toMatchObject({ status: 'processing', channel: 'direct_debit' });
    await expect.poll(() => noticesFor('charge.success', debitReference).length).toBe(1);
  });
});

describe('direct debit on the bank page', () => {
  const initialize = (extra: Record<string, unknown> = {}) =>
    call('POST', '/customer/authorization/initialize', {
      email: `mandate-${++counter}@example.com`,
      channel: 'direct_debit',
      account: { number: '0123456789', bank_code: '058' },
      ...extra,
    });

  const answerOnPage = (redirectUrl: string, answer: 'approve' | 'decline') =>
    fetch(redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `answer=${answer}`,
      redirect: 'manual',
    });

  const mandateEvents = (reference: string) =>
    receiver.received
      .map((notice) => JSON.parse(notice.raw))
      .filter(
        (notice) =>
          notice.event.startsWith('direct_debit.authorization.') &&
          notice.data.reference === reference,
      )
      .map((notice) => notice.event);

  it('offers Approve and Decline as the submit buttons of a form, which a keyboard reaches and presses', async () => {
    const started = await initialize();
    const html = await (await fetch(started.json.data.redirect_url)).text();
    expect(html).toMatch(/<form method="post" action="\/mandate\/[a-z0-9]+" class="actions">/);
    expect(html).toContain('<button type="submit" name="answer" value="approve">Approve</button>');
    expect(html).toContain('<button type="submit" name="answer" value="decline">Decline</button>');
    expect(html).not.toContain('tabindex');
    expect(html).toContain('button:focus-visible');
  });

  it('on approval sends created then active, sends the payer back to callback_url with the reference, and then says it is done with a link back', async () => {
    const started = await initialize({ callback_url: 'https://merchant.example/back?from=bank' });
    const { reference, redirect_url: redirectUrl } = started.json.data;
    expect(simulator.mandateAnswer(reference)).toBeNull();

    const answered = await answerOnPage(redirectUrl, 'approve');
    expect(answered.status).toBe(303);
    const back = `https://merchant.example/back?from=bank&reference=${reference}`;
    expect(answered.headers.get('location')).toBe(back);
    expect(mandateEvents(reference)).toEqual([
      'direct_debit.authorization.created',
      'direct_debit.authorization.active',
    ]);
    expect(simulator.mandateAnswer(reference)).toBe('approved');

    const html = await (await fetch(redirectUrl)).text();
    expect(html).toContain('<h1>Direct debit approved</h1>');
    expect(html).toContain('<p role="status">Done: this mandate was approved.</p>');
    expect(html).toContain(`<a href="${back.replaceAll('&', '&#38;')}">Return to the merchant</a>`);
    expect(html).not.toContain('<form');
  });

  it('on decline without a callback_url stays on its page, which says so; verify stays 404 and the answer is kept', async () => {
    const started = await initialize();
    const { reference, redirect_url: redirectUrl } = started.json.data;

    const answered = await answerOnPage(redirectUrl, 'decline');
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe(redirectUrl);
    const html = await (await fetch(redirectUrl)).text();
    expect(html).toContain('<h1>Direct debit declined</h1>');
    expect(html).toContain('Done: this mandate was declined. You can close this page.');
    expect(html).not.toContain('Return to the merchant');

    const verified = await call('GET', `/customer/authorization/verify/${reference}`);
    expect(verified.status).toBe(404);
    expect(simulator.mandateAnswer(reference)).toBe('declined');
    expect(simulator.mandateAnswer('never-initialized')).toBeNull();
    // A second answer on the page changes nothing.
    await answerOnPage(redirectUrl, 'approve');
    expect(simulator.mandateAnswer(reference)).toBe('declined');
    await simulator.idle();
    expect(mandateEvents(reference)).toEqual([]);
  });

  it('lists which banks take direct debit, and refuses a mandate on one that does not', async () => {
    const banks = await call('GET', '/bank?country=nigeria');
    const flags = Object.fromEntries(
      banks.json.data.map((bank: { code: string; available_for_direct_debit: boolean }) => [
        bank.code,
        bank.available_for_direct_debit,
      ]),
    );
    expect(flags).toEqual({
      '044': true,
      '050': false,
      '011': true,
      '058': true,
      '50211': false,
      '999992': false,
      '033': false,
      '035': false,
      '057': true,
    });

    const kuda = await initialize({ account: { number: '2000000002', bank_code: '50211' } });
    expect(kuda).toEqual({
      status: 400,
      json: { status: false, message: 'Bank not available for direct debit' },
    });
    const unknown = await initialize({ account: { number: '2000000002', bank_code: '000' } });
    expect(unknown.json).toEqual({ status: false, message: 'Invalid bank code' });
    const zenith = await initialize({ account: { number: '2000000001', bank_code: '057' } });
    expect(zenith.status).toBe(200);
  });
});

describe('customers', () => {
  const newEmail = () => `customer-${Date.now()}-${++counter}@example.com`;

  it('creates a customer, answers the same one for its email with the names and phone given, and fetches it by code or email', async () => {
    const email = newEmail();
    const created = await call('POST', '/customer', { email, first_name: 'Ada' });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      status: true,
      message: 'Customer created',
      data: {
        transactions: [],
        subscriptions: [],
        authorizations: [],
        email,
        first_name: 'Ada',
        last_name: null,
        phone: null,
        metadata: null,
        domain: 'test',
        customer_code: expect.stringMatching(/^CUS_[a-z0-9]{15}$/),
        risk_action: 'default',
        id: expect.any(Number),
        integration: expect.any(Number),
        identified: false,
        identifications: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const { customer_code: code, id } = created.json.data;

    const again = await call('POST', '/customer', {
      email: email.toUpperCase(),
      last_name: 'Obi',
      phone: '+2348012345678',
      metadata: JSON.stringify({ shop: 'north' }),
    });
    expect(again.json.data).toMatchObject({
      customer_code: code,
      id,
      email,
      first_name: 'Ada',
      last_name: 'Obi',
      phone: '+2348012345678',
      metadata: { shop: 'north' },
    });

    const byCode = await call('GET', `/customer/${code}`);
    const byEmail = await call('GET', `/customer/${encodeURIComponent(email)}`);
    expect(byCode.json).toMatchObject({
      status: true,
      message: 'Customer retrieved',
      data: { customer_code: code, last_name: 'Obi', identified: false },
    });
    expect(byEmail.json.data).toEqual(byCode.json.data);
    expect(await call('GET', '/customer/CUS_neverheardof0000')).toEqual({
      status: 404,
      json: { status: false, message: 'Customer not found' },
    });
  });

  it('refuses a customer without a valid email', async () => {
    const missing = await call('POST', '/customer', { first_name: 'Ada' });
    const invalid = await call('POST', '/customer', { email: 'not-an-email' });
    expect(missing).toEqual({ status: 400, json: { status: false, message: 'email is required' } });
    expect(invalid).toEqual({
      status: 400,
      json: { status: false, message: 'Invalid Email Address Passed' },
    });
  });

  it('is the one customer of its email that charges and mandates use', async () => {
    const email = newEmail();
    const paid = await chargeCard('4084084084084081', { email });
    const created = await call('POST', '/customer', { email, first_name: 'Musa' });
    expect(created.json.data.customer_code).toBe(paid.json.data.customer.customer_code);
    const verified = await call('GET', `/transaction/verify/${paid.json.data.reference}`);
    expect(verified.json.data.customer).toMatchObject({
      customer_code: created.json.data.customer_code,
      first_name: 'Musa',
    });
    const fetched = await call('GET', `/customer/${created.json.data.customer_code}`);
    expect(fetched.json.data.total_transactions).toBe(1);

    const mandate = await call('POST', '/customer/authorization/initialize', {
      email,
      channel: 'direct_debit',
      account: { number: '3000000001', bank_code: '011' },
    });
    await simulator.answerMandate(mandate.json.data.reference, true);
    const verifiedMandate = await call(
      'GET',
      `/customer/authorization/verify/${mandate.json.data.reference}`,
    );
    expect(verifiedMandate.json.data.customer.code).toBe(created.json.data.customer_code);
  });
});

describe('customer identification', () => {
  const identification = (extra: Record<string, unknown> = {}) => ({
    country: 'NG',
    type: 'bank_account',
    account_number: '0123456789',
    bvn: '22200000011',
    bank_code: '058',
    first_name: 'Adaeze',
    last_name: 'Okafor',
    ...extra,
  });

  const newCustomer = async () =>
    (await call('POST', '/customer', { email: `identify-${Date.now()}-${++counter}@example.com` }))
      .json.data as { customer_code: string; id: number; email: string };

  /** The identification notices our server received for this customer, parsed. */
  const identificationNotices = (code: string) =>
    receiver.received
      .map((notice) => JSON.parse(notice.raw))
      .filter(
        (notice) =>
          notice.event.startsWith('customeridentification.') && notice.data.customer_code === code,
      );

  it('answers 202, then sends customeridentification.success with the numbers masked, and the customer is identified', async () => {
    const customer = await newCustomer();
    const answer = await call(
      'POST',
      `/customer/${customer.customer_code}/identification`,
      identification({ middle_name: 'Ngozi' }),
    );
    expect(answer).toEqual({
      status: 202,
      json: { status: true, message: 'Customer Identification in progress' },
    });
    await expect.poll(() => identificationNotices(customer.customer_code).length).toBe(1);
    const expected = {
      country: 'NG',
      type: 'bank_account',
      bvn: '222*****011',
      account_number: '012****789',
      bank_code: '058',
    };
    expect(identificationNotices(customer.customer_code)).toEqual([
      {
        event: 'customeridentification.success',
        data: {
          customer_id: customer.id,
          customer_code: customer.customer_code,
          email: customer.email,
          identification: expected,
        },
      },
    ]);
    const fetched = await call('GET', `/customer/${customer.customer_code}`);
    expect(fetched.json.data).toMatchObject({ identified: true, identifications: [expected] });
  });

  it('sends customeridentification.failed for an account held under another BVN or one that does not resolve, and the customer stays unidentified', async () => {
    const customer = await newCustomer();
    const path = `/customer/${customer.customer_code}/identification`;
    await call('POST', path, identification({ account_number: '0001234567', bank_code: '044' }));
    await expect.poll(() => identificationNotices(customer.customer_code).length).toBe(1);
    await call('POST', path, identification({ account_number: '9999999999' }));
    await expect.poll(() => identificationNotices(customer.customer_code).length).toBe(2);
    expect(identificationNotices(customer.customer_code)).toEqual([
      {
        event: 'customeridentification.failed',
        data: {
          customer_id: customer.id,
          customer_code: customer.customer_code,
          email: customer.email,
          identification: {
            country: 'NG',
            type: 'bank_account',
            bvn: '222*****011',
            account_number: '000****567',
            bank_code: '044',
          },
          reason: 'Account number or BVN is incorrect',
        },
      },
      expect.objectContaining({
        event: 'customeridentification.failed',
        data: expect.objectContaining({
          identification: expect.objectContaining({ account_number: '999****999' }),
          reason: 'Account number or BVN is incorrect',
        }),
      }),
    ]);
    const fetched = await call('GET', `/customer/${customer.customer_code}`);
    expect(fetched.json.data).toMatchObject({ identified: false, identifications: null });

    // The same Access account under its holder's BVN is identified.
    await call(
      'POST',
      path,
      identification({ account_number: '0001234567', bank_code: '044', bvn: '22200000022' }),
    );
    await expect.poll(() => identificationNotices(customer.customer_code).length).toBe(3);
    expect(identificationNotices(customer.customer_code)[2].event).toBe(
      'customeridentification.success',
    );
  });

  it('refuses an unknown customer with 404 and a missing or malformed field with 400 naming it, and sends nothing', async () => {
    const customer = await newCustomer();
    const path = `/customer/${customer.customer_code}/identification`;
    expect(
      await call('POST', '/customer/CUS_neverheardof0000/identification', identification()),
    ).toEqual({ status: 404, json: { status: false, message: 'Customer not found' } });
    expect(
      (
        await call(
          'POST',
          `/customer/${encodeURIComponent(customer.email)}/identification`,
          identification(),
        )
      ).status,
    ).toBe(404);

    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ country: undefined }, /^country is required$/],
      [{ country: 'GH' }, /country/],
      [{ type: 'bvn' }, /type/],
      [{ account_number: undefined }, /^account_number is required$/],
      [{ account_number: '12345' }, /^account_number must be 10 digits$/],
      [{ bvn: undefined }, /^bvn is required$/],
      [{ bvn: '2220000001x' }, /^bvn must be 11 digits$/],
      [{ bank_code: undefined }, /^bank_code is required$/],
      [{ bank_code: '000' }, /bank code/i],
      [{ first_name: undefined }, /^first_name is required$/],
      [{ last_name: '' }, /^last_name is required$/],
    ];
    for (const [change, message] of refusals) {
      const answer = await call('POST', path, identification(change));
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.json.status).toBe(false);
      expect(answer.json.message, JSON.stringify(change)).toMatch(message);
    }
    await simulator.idle();
    expect(identificationNotices(customer.customer_code)).toEqual([]);
  });

  it('takes who holds each account from the accountHolders option', async () => {
    const own = await noticeReceiver();
    const held = await startPaystackSimulator({
      secretKey: SECRET,
      noticeUrl: own.url,
      accountHolders: { '058:0123456789': '12345678901' },
    });
    try {
      const post = async (path: string, body: unknown) => {
        const answer = await fetch(`${held.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return answer.json();
      };
      const { data: customer } = await post('/customer', { email: 'held@example.com' });
      const path = `/customer/${customer.customer_code}/identification`;
      const bodies = [
        identification(),
        identification({ bvn: '12345678901' }),
        identification({ account_number: '0000000001', bvn: '22200000011' }),
      ];
      for (const [index, body] of bodies.entries()) {
        await post(path, body);
        await expect.poll(() => own.received.length).toBe(index + 1);
      }
      expect(own.received.map((notice) => JSON.parse(notice.raw).event)).toEqual([
        'customeridentification.failed',
        'customeridentification.success',
        'customeridentification.failed',
      ]);
    } finally {
      await held.close();
      await own.close();
    }
  });
});

describe('faults', () => {
  it('takes effect when the answer is lost, and verify by reference then tells the truth', async () => {
    const reference = newReference();
    simulator.loseNextAnswer('/charge');
    await expect(chargeCard('4084084084084081', { reference })).rejects.toThrow();
    const verified = await call('GET', `/transaction/verify/${reference}`);
    expect(verified.json.data).toMatchObject({ reference, status: 'success' });
  });

  it('answers the status it is told without effect, once', async () => {
    const reference = newReference();
    simulator.failNext('/charge', 503);
    const failed = await chargeCard('4084084084084081', { reference });
    expect(failed.status).toBe(503);
    expect((await call('GET', `/transaction/verify/${reference}`)).status).toBe(404);
    const retried = await chargeCard('4084084084084081', { reference });
    expect(retried.json.data.status).toBe('success');
  });

  it('holds answers back until their notices were delivered while told to', async () => {
    await simulator.idle();
    simulator.noticesBeforeAnswer(/^\/charge$/);
    const held = await chargeCard('4084084084084081');
    // The notice was answered before the charge's answer left.
    expect(noticesFor('charge.success', held.json.data.reference)).toHaveLength(1);
    simulator.noticesBeforeAnswer(null);
    const next = await chargeCard('4084084084084081');
    expect(next.json.data.status).toBe('success');
    await expect.poll(() => noticesFor('charge.success', next.json.data.reference).length).toBe(1);
  });

  it('sends a notice again until our server answers 200 (a 204 is not taken), and records each answer', async () => {
    await simulator.idle();
    receiver.answerNext(500, 204);
    const paid = await chargeCard('4084084084084081');
    const reference = paid.json.data.reference;
    await expect.poll(() => noticesFor('charge.success', reference).length).toBe(3);
    await simulator.idle();
    const bodies = new Set(noticesFor('charge.success', reference).map((notice) => notice.raw));
    expect(bodies.size).toBe(1);
    const [body] = bodies;
    expect(simulator.notices.filter((notice) => notice.body === body).map((n) => n.status)).toEqual(
      [500, 204, 200],
    );
  });
});

describe('requests as Paystack reads them', () => {
  it('takes a form body as well as JSON, and records the parsed body', async () => {
    const reference = newReference();
    const answer = await fetch(`${simulator.url}/charge/submit_pin`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SECRET}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ pin: '1111', reference }).toString(),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      status: false,
      message: 'Transaction reference is invalid',
    });
    expect(simulator.requests.at(-1)).toEqual({
      method: 'POST',
      path: '/charge/submit_pin',
      body: { pin: '1111', reference },
      authorized: true,
    });
  });

  it('answers 404 for a path Paystack does not have and 405 for a method a path does not take', async () => {
    expect((await call('GET', '/no-such-thing')).status).toBe(404);
    expect((await call('DELETE', '/charge')).status).toBe(405);
  });

  it('refuses a saved-card charge whose reference has other characters, before any effect', async () => {
    const paid = await chargeCard('4084084084084081');
    const answer = await call('POST', '/transaction/charge_authorization', {
      authorization_code: paid.json.data.authorization.authorization_code,
      email: 'payer@example.com',
      amount: 10_000,
      reference: 'order#1',
    });
    expect(answer.status).toBe(400);
    expect((await call('GET', '/transaction/verify/order%231')).status).toBe(404);
  });
});

describe('time', () => {
  it('lets a one-time account expire: verify says abandoned, and money paid in after is not taken', async () => {
    let at = new Date('2030-01-01T10:00:00Z');
    const timed = await startPaystackSimulator({
      secretKey: SECRET,
      noticeUrl: receiver.url,
      clock: () => at,
    });
    try {
      const answer = await fetch(`${timed.url}/charge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'late@example.com', amount: 5_000, bank_transfer: {} }),
      });
      const { data } = await answer.json();
      expect(data.account_expires_at).toBe('2030-01-01T10:30:00.000Z');
      at = new Date('2030-01-01T10:31:00Z');
      await timed.payTransfer(data.account_number, 5_000);
      expect(timed.notices).toEqual([]);
      const verified = await fetch(`${timed.url}/transaction/verify/${data.reference}`, {
        headers: { authorization: `Bearer ${SECRET}` },
      });
      expect((await verified.json()).data.status).toBe('abandoned');
    } finally {
      await timed.close();
    }
  });

  it('declines a card whose expiry has passed by its clock', async () => {
    const timed = await startPaystackSimulator({
      secretKey: SECRET,
      clock: () => new Date('2031-06-15T00:00:00Z'),
    });
    try {
      const answer = await fetch(`${timed.url}/charge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'payer@example.com',
          amount: 5_000,
          card: { number: '4084084084084081', cvv: '408', expiry_month: '05', expiry_year: '31' },
        }),
      });
      expect((await answer.json()).data).toMatchObject({
        status: 'failed',
        gateway_response: 'Expired Card',
      });
    } finally {
      await timed.close();
    }
  });
});

describe('the command line', () => {
  it('starts on PORT, says where in one line, and answers with the key it was given', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))],
      {
        env: { ...process.env, PORT: '0', PAYSTACK_SECRET_KEY: SECRET, NOTICE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await expect
        .poll(() => output)
        .toMatch(/^Paystack simulator on http:\/\/127\.0\.0\.1:\d+\n$/);
      const url = output.trim().replace('Paystack simulator on ', '');
      const answer = await fetch(`${url}/bank`, { headers: { authorization: `Bearer ${SECRET}` } });
      expect(answer.status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('Paystack Terminal', () => {
  it('pays a request at its terminal by a pos transaction it refunds, and archives one unpaid off its terminal', async () => {
    simulator.addTerminal('SIMTEST1', { online: true });
    const customer = await call('POST', '/customer', { email: 'till@example.com' });
    const request = async () => {
      const made = await call('POST', '/paymentrequest', {
        customer: customer.json.data.customer_code,
        amount: 50_000,
        description: 'Till test',
      });
      const { id, offline_reference: reference } = made.json.data;
      await call('POST', '/terminal/SIMTEST1/event', {
        type: 'invoice',
        action: 'process',
        data: { id, reference },
      });
      return made.json.data as { id: number; request_code: string };
    };
    const presence = async () => (await call('GET', '/terminal/SIMTEST1/presence')).json.data;

    // Paid at the terminal: Fetch names the transaction, which refunds like any other.
    const paid = await request();
    expect(await presence()).toEqual({ online: true, available: false });
    await simulator.cardAtTerminal('SIMTEST1', 'approved');
    expect(await presence()).toEqual({ online: true, available: true });
    const fetched = (await call('GET', `/paymentrequest/${paid.request_code}`)).json.data;
    expect(fetched).toMatchObject({ status: 'success', paid: true, archived: false });
    const [transaction] = fetched.transactions as Array<{ reference: string; channel: string }>;
    expect(transaction).toMatchObject({ channel: 'pos', status: 'success', amount: 50_000 });
    const refund = await call('POST', '/refund', { transaction: transaction?.reference });
    expect(refund.json.data).toMatchObject({ status: 'pending', amount: 50_000 });

    // Archived unpaid: off its terminal, no longer listed nor verified, still fetched.
    const unpaid = await request();
    expect(await presence()).toEqual({ online: true, available: false });
    const archived = await call('POST', `/paymentrequest/archive/${unpaid.id}`);
    expect(archived.json).toEqual({ status: true, message: 'Payment request has been archived' });
    expect(await presence()).toEqual({ online: true, available: true });
    expect(simulator.terminalShowing('SIMTEST1')).toBeNull();
    const codes = (await call('GET', '/paymentrequest')).json.data.map(
      (listed: { request_code: string }) => listed.request_code,
    );
    expect(codes).not.toContain(unpaid.request_code);
    expect((await call('GET', `/paymentrequest/verify/${unpaid.request_code}`)).status).toBe(404);
    expect((await call('GET', `/paymentrequest/${unpaid.request_code}`)).json.data).toMatchObject({
      status: 'pending',
      archived: true,
    });
  });
});
