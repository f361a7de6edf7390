// The page's live events over real HTTP: a payment's stream delivers its events as they commit, a
// reconnect with Last-Event-ID gets only what it missed, and only a ticket or the consent link
// (with the page's charge tokens once someone began paying) opens a stream.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZPaymentStateResponse, ZStreamTicketResponse } from '../../domain/schemas/payment';
import { accountLinks } from '../db/schema';
import { STREAM_TICKET_TTL_MS } from '../services/event-stream-tickets';
import { startTestApp, testClock } from '../testing/test-app';
import { ownPerson, type TSandboxPerson } from '../testing/bvn';
import { signUp, testPhone } from '../testing/identity';
import {
  consentWithPayment,
  encryptedCard,
  keepPageToken,
  pageQuery,
  payByCard,
  sandboxCard,
  sandboxTransfer,
  type TCardScenarioName,
} from '../testing/payments';
import { collectSse, type TCollectArgs, type TSseEvent } from '../testing/sse';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
beforeAll(async () => {
  ctx = await startTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await ctx.close();
});

/** Opens a stream of this app and collects its events until `until` says enough. */
const collect = (...args: TCollectArgs) => collectSse(base, ...args);

const statuses = (events: TSseEvent[]) =>
  events.filter((e) => e.event === 'payment_status').map((e) => e.data.status);

describe('payment event stream', () => {
  it(
    'delivers in_progress then completed live to the page holding its charge token',
    { tags: ['postgres'] },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      // A card waiting for its OTP: the page holds the charge's token, and the OTP completes it.
      const started = await payByCard(ctx.app, consent, 'pin_otp');
      expect(started.statusCode).toBe(200);
      const url = `/api/events/payments/${consent.paymentId}?${pageQuery(consent, true)}`;
      const { status, events } = await collect(
        url,
        (seen) => statuses(seen).includes('completed'),
        {},
        async () => {
          const otp = await ctx.app.inject({
            method: 'POST',
            url: '/api/payments/card/complete',
            payload: {
              paymentId: consent.paymentId,
              consentId: consent.consentId,
              otp: sandboxCard('pin_otp').otp,
              chargeToken: started.json<{ chargeToken: string }>().chargeToken,
            },
          });
          expect(otp.statusCode).toBe(200);
        },
      );
      expect(status).toBe(200);
      expect(events[0]).toMatchObject({ event: 'ready' });
      // In progress (the charge, then its OTP step, which names the step), then completed.
      expect(statuses(events)).toEqual(['in_progress', 'in_progress', 'completed']);
      const completed = events.find((e) => e.data.status === 'completed');
      expect(completed?.data).toMatchObject({ eventType: 'payment_success', paymentType: 'card' });

      // A reconnect that saw every event before it gets only the completion.
      const seenBefore = events.filter(
        (e) => e.event === 'payment_status' && e.data.status === 'in_progress',
      );
      const firstId = seenBefore.at(-1)?.id ?? '';
      const resumed = await collect(url, (seen) => statuses(seen).length >= 1, {
        'last-event-id': firstId,
      });
      expect(statuses(resumed.events)).toEqual(['completed']);
      expect(resumed.events.find((e) => e.event === 'payment_status')?.id).toBe(completed?.id);
    },
  );

  it(
    "opened from the payment read's lastEventId, sends only what happened after the read",
    { tags: ['postgres'] },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const read = async () => {
        const response = await ctx.app.inject({
          method: 'GET',
          url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
        });
        expect(response.statusCode).toBe(200);
        return ZPaymentStateResponse.parse(response.json());
      };
      expect((await read()).lastEventId).toBe(0);

      // A transfer account issued and confirmed: the read shows it, and names its last event.
      const opened = await ctx.app.inject({
        method: 'POST',
        url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
      });
      const { accountNumber, amount } = keepPageToken(consent.paymentId, opened).json<{
        transferDetails: { accountNumber: string; amount: number };
      }>().transferDetails;
      const confirmed = await ctx.app.inject({
        method: 'POST',
        url: `/api/payments/${consent.paymentId}/transfer/confirm?consentId=${consent.consentId}`,
      });
      expect(confirmed.statusCode).toBe(200);
      const before = await read();
      expect(before).toMatchObject({ status: 'in_progress', method: 'bank_transfer' });
      expect(before.lastEventId).toBeGreaterThan(0);

      const url = `/api/events/payments/${consent.paymentId}?${pageQuery(consent, true)}`;
      // From the start, the stream's last event so far is the one the read named.
      const all = await collect(url, (seen) =>
        seen.some((e) => e.id === String(before.lastEventId)),
      );
      expect(all.events.at(-1)?.id).toBe(String(before.lastEventId));
      const after = await collect(
        `${url}&lastEventId=${before.lastEventId}`,
        (seen) => statuses(seen).includes('completed'),
        {},
        async () => {
          const sent = await sandboxTransfer(ctx.app, { accountNumber, amount });
          expect(sent.json()).toMatchObject({ outcome: 'credited' });
        },
      );
      expect(Number(after.events.find((e) => e.event === 'payment_status')?.id)).toBeGreaterThan(
        before.lastEventId,
      );
      expect(statuses(after.events)).toEqual(['completed']);
      expect((await read()).lastEventId).toBe(Number(after.events.at(-1)?.id));
    },
  );

  it('refuses the link of another client, and a consent that needs sign-in', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const other = await consentWithPayment(ctx.app, ctx.database);
    const wrongClient = await collect(
      `/api/events/payments/${consent.paymentId}?consentId=${consent.consentId}&clientId=${other.client.clientId}`,
      () => true,
    );
    expect(wrongClient.status).toBe(403);
    const guarded = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const anonymous = await collect(
      `/api/events/payments/${guarded.paymentId}?consentId=${guarded.consentId}&clientId=${guarded.client.clientId}`,
      () => true,
    );
    expect(anonymous.status).toBe(401);
  });

  it('opens with a ticket for a signed-in payer, only the stream it was issued for', async () => {
    const { token } = await signUp(ctx.app, testPhone());
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/events/tickets',
      headers: { authorization: `Bearer ${token}` },
      payload: { stream: 'payment', paymentId: consent.paymentId },
    });
    expect(issued.statusCode).toBe(200);
    const { ticket } = issued.json<{ ticket: string }>();
    const opened = await collect(
      `/api/events/payments/${consent.paymentId}?ticket=${ticket}`,
      (seen) => seen.length >= 1,
    );
    expect(opened.status).toBe(200);
    // EventSource reconnects to the same URL by itself: the ticket opens it again.
    const reopened = await collect(
      `/api/events/payments/${consent.paymentId}?ticket=${ticket}`,
      (seen) => seen.length >= 1,
    );
    expect(reopened.status).toBe(200);
    const other = await consentWithPayment(ctx.app, ctx.database);
    const elsewhere = await collect(
      `/api/events/payments/${other.paymentId}?ticket=${ticket}`,
      () => true,
    );
    expect(elsewhere.status).toBe(401);
    const cardLinking = await collect(`/api/events/card-linking?ticket=${ticket}`, () => true);
    expect(cardLinking.status).toBe(401);
    const noTicket = await ctx.app.inject({
      method: 'POST',
      url: '/api/events/tickets',
      payload: { stream: 'card-linking' },
    });
    expect(noTicket.statusCode).toBe(401);
  });
});

describe("a payer's card-linking stream", () => {
  type TCard = TSandboxPerson['cards'][number];

  /** The card of a scenario of the payer's own person, issued on that person's card account. */
  const cardOf = async (token: string, scenario: TCardScenarioName): Promise<TCard> => {
    const card = (await ownPerson(ctx.app, token)).cards.find((c) => c.scenario === scenario);
    if (!card) throw new Error(`No ${scenario} card`);
    return card;
  };

  const attempt = async (token: string, card: TCard) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        saveCard: true,
        saveToAccount: card.account,
        cardDetails: await encryptedCard(ctx.app, card),
      },
    });
  const linkCard = async (token: string, card: TCard) => {
    const response = await attempt(token, card);
    expect(response.statusCode).toBe(200);
    return response.json<{ paymentId: string }>().paymentId;
  };
  const ticketFor = async (token: string) => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/events/tickets',
      headers: { authorization: `Bearer ${token}` },
      payload: { stream: 'card-linking' },
    });
    expect(issued.statusCode).toBe(200);
    return ZStreamTicketResponse.parse(issued.json());
  };
  const linking = (events: TSseEvent[]) => events.filter((e) => e.event.startsWith('card_linking'));
  const linked = (events: TSseEvent[]) => events.some((e) => e.event === 'card_linking_success');

  it(
    'opened after an earlier attempt, sends only what happened after it asked',
    { tags: ['postgres'] },
    async () => {
      const { token, user } = await signUp(ctx.app, testPhone(), 'Funmilayo Adebayo');
      // The payer's account that links by card, and two of its cards: the first is declined,
      // the second links it (one BVN is the payer's: their own person's account, its cards).
      const declined = await attempt(token, await cardOf(token, 'declined'));
      expect(declined.statusCode).toBe(402);
      const [earlier] = await ctx.database.db
        .select({ id: accountLinks.id })
        .from(accountLinks)
        .where(eq(accountLinks.payerId, user.userId));
      const first = earlier?.id ?? '';
      expect(first).not.toBe('');
      // The ticket names where the stream stood: after the first attempt's refusal.
      const { ticket, lastEventId } = await ticketFor(token);
      expect(lastEventId).toBeGreaterThan(0);
      const url = `/api/events/card-linking?ticket=${ticket}`;

      // Opened without a position, it hears nothing of the first link, then the second live.
      let second = '';
      const opened = await collect(url, linked, {}, async () => {
        second = await linkCard(token, await cardOf(token, 'pin_only'));
      });
      expect(opened.status).toBe(200);
      expect(linking(opened.events).map((e) => [e.event, e.data.paymentId])).toEqual([
        ['card_linking_progress', second],
        ['card_linking_progress', second],
        ['card_linking_success', second],
      ]);
      expect(linking(opened.events).every((e) => Number(e.id) > lastEventId)).toBe(true);

      // Opened from the position the ticket named: the second attempt only, the first never.
      const fromTicket = await collect(`${url}&lastEventId=${lastEventId}`, linked);
      expect(new Set(linking(fromTicket.events).map((e) => e.data.paymentId))).toEqual(
        new Set([second]),
      );
      // A client naming an earlier position (a reconnect) gets what it missed from there.
      const fromStart = await collect(`${url}&lastEventId=0`, linked);
      expect(linking(fromStart.events)[0]?.data).toMatchObject({
        event: 'card_linking_failed',
        paymentId: first,
      });
    },
  );

  it("a link's own stream carries that attempt alone, not an earlier one of the account", async () => {
    const { token, user } = await signUp(ctx.app, testPhone(), 'Funmilayo Adebayo');
    const declined = await attempt(token, await cardOf(token, 'declined'));
    expect(declined.statusCode).toBe(402);
    const [refused] = await ctx.database.db
      .select({ id: accountLinks.id })
      .from(accountLinks)
      .where(eq(accountLinks.payerId, user.userId));
    const now = await linkCard(token, await cardOf(token, 'pin_only'));
    expect(now).not.toBe(refused?.id);
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/events/tickets',
      headers: { authorization: `Bearer ${token}` },
      payload: { stream: 'account-link', accountLinkId: now },
    });
    const { ticket } = ZStreamTicketResponse.parse(issued.json());
    // Opened after the link completed, from its start: the page made this attempt itself.
    const opened = await collect(`/api/events/account-links/${now}?ticket=${ticket}`, (seen) =>
      seen.some((e) => e.event === 'account_link_progress'),
    );
    expect(
      opened.events.filter((e) => e.event === 'account_link_progress').map((e) => e.data),
    ).toEqual([{ accountLinkId: now, status: 'completed' }]);
  });
});

describe('a stream left open', () => {
  // An app of its own: heartbeats every 100 ms (15 s by default) and a clock the test moves.
  const clock = testClock('2026-11-24T09:00:00Z');
  let quiet: Awaited<ReturnType<typeof startTestApp>>;
  let quietBase: string;
  beforeAll(async () => {
    quiet = await startTestApp({ clock, env: { SSE_HEARTBEAT_MS: '100' } });
    quietBase = await quiet.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await quiet.close();
  });

  it('sends a heartbeat comment while nothing happens, and stays open', async () => {
    const consent = await consentWithPayment(quiet.app, quiet.database);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 5_000);
    const response = await fetch(
      `${quietBase}/api/events/payments/${consent.paymentId}?consentId=${consent.consentId}&clientId=${consent.client.clientId}`,
      { headers: { accept: 'text/event-stream' }, signal: abort.signal },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    try {
      while ((text.match(/^: heartbeat$/gm) ?? []).length < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    expect((text.match(/^: heartbeat$/gm) ?? []).length).toBeGreaterThanOrEqual(3);
    // Only the opening event came: the heartbeats are comments, which EventSource ignores.
    expect(text.match(/^event: /gm)).toEqual(['event: ']);
  });

  it('opens with a ticket until five minutes after its issue, and not after', async () => {
    const { token } = await signUp(quiet.app, testPhone());
    const consent = await consentWithPayment(quiet.app, quiet.database, { requiresAuth: true });
    const issued = await quiet.app.inject({
      method: 'POST',
      url: '/api/events/tickets',
      headers: { authorization: `Bearer ${token}` },
      payload: { stream: 'payment', paymentId: consent.paymentId },
    });
    const { ticket, expiresAt } = issued.json<{ ticket: string; expiresAt: string }>();
    expect(Date.parse(expiresAt) - clock.now().getTime()).toBe(STREAM_TICKET_TTL_MS);
    const url = `/api/events/payments/${consent.paymentId}?ticket=${ticket}`;

    clock.advance(STREAM_TICKET_TTL_MS - 1_000);
    const lastSecond = await collectSse(quietBase, url, (seen) => seen.length >= 1);
    expect(lastSecond.status).toBe(200);

    clock.advance(1_000);
    const expired = await fetch(`${quietBase}${url}`, { headers: { accept: 'text/event-stream' } });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({
      success: false,
      error: {
        code: 'STREAM_TICKET_INVALID',
        message: 'This event stream link has expired. Please reconnect.',
      },
    });
  });
});
