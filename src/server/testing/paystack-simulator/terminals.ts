import {
  PaystackRefusal,
  amountIn,
  optionalObject,
  optionalString,
  requiredString,
} from './request-checks';
import {
  INTEGRATION_ID,
  iso,
  listPage,
  ok,
  randomCode,
  type TContext,
  type TRoute,
  type TSimState,
  type TTransaction,
} from './simulator-state';

/**
 * Paystack Terminal's push payment requests (paystack.com/docs/terminal/push-payment-requests;
 * PaystackOSS/openapi paths paymentrequest*.yaml and terminal*.yaml):
 *
 *   POST /paymentrequest              a payment request for a customer (code or id) and an
 *                                     amount: `pending`, with its `request_code` and the
 *                                     `offline_reference` the terminal is sent; notice
 *                                     paymentrequest.pending
 *   GET  /paymentrequest              list, newest first: `customer`, `status`, `from`, `to`;
 *                                     never an archived one
 *   GET  /paymentrequest/{id_or_code} fetch, with the `transactions` that paid it and
 *                                     `archived` (PaymentRequestViewResponse), archived or not
 *   GET  /paymentrequest/verify/{code} its status, `paid`, `paid_at`, the customer as an object;
 *                                     an archived one "cannot be verified"
 *   POST /paymentrequest/archive/{id_or_code}
 *                                     archived: not listed, not verified (PaystackOSS/openapi
 *                                     paymentrequest_archive_{id}.yaml; its answer, "Payment
 *                                     request has been archived", from PaystackOSS/doc-code-
 *                                     snippets api/payment-requests/archive)
 *   POST /terminal/{id}/event         `type` invoice with `action` process (or view), `data`
 *                                     { id, reference: offline_reference }: answers the event's
 *                                     id; delivered only to a terminal that is online
 *   GET  /terminal/{id}/event/{event} { delivered }
 *   GET  /terminal/{id}/presence      { online, available }
 *   GET  /terminal/{id}               the terminal
 *
 * At the terminal (the controls): a card approved marks the request paid (`success`), records the
 * card's transaction (channel `pos`, Paystack's own reference, refundable as any other) and sends
 * its charge.success and paymentrequest.success. A terminal showing a request still pending is
 * not `available` (what Paystack's live terminals answered while one waited). Paystack's docs do
 * not say what archiving does to a request a terminal shows: the simulator takes it off the
 * terminal, which is then available again, and no card pays it (what the product asks of
 * Archive; paystack-terminal.live.test.ts checks it against Paystack itself). Paystack's
 * docs describe no notice of a card declined at the terminal, nor what it does to the request:
 * the simulator marks the request `failed` (a status List Payment Request filters by) and sends
 * nothing. Messages the docs do not show are marked so beside them.
 */

export type TSimTerminal = {
  terminal_id: string;
  serial_number: string;
  name: string;
  online: boolean;
  available: boolean;
  /** The payment request it shows (the last invoice event delivered), by id. */
  showing: number | null;
};

type TPaymentRequest = {
  id: number;
  request_code: string;
  offline_reference: string;
  amount: number;
  currency: string;
  description: string | null;
  customerId: number;
  customerCode: string;
  status: 'pending' | 'success' | 'failed';
  paidAt: Date | null;
  createdAt: Date;
  archived: boolean;
  /** The card's transaction that paid it, once paid. */
  transaction: TTransaction | null;
};

type TTerminalEvent = { id: string; terminalId: string; delivered: boolean };

/** The request as Create and Fetch show it. */
const requestFields = (request: TPaymentRequest) => ({
  id: request.id,
  integration: INTEGRATION_ID,
  domain: 'test',
  amount: request.amount,
  currency: request.currency,
  due_date: null,
  has_invoice: false,
  invoice_number: null,
  description: request.description,
  line_items: [],
  tax: [],
  request_code: request.request_code,
  status: request.status,
  paid: request.status === 'success',
  paid_at: iso(request.paidAt),
  metadata: null,
  notifications: [],
  offline_reference: request.offline_reference,
  customer: request.customerId,
  created_at: iso(request.createdAt),
  discount: null,
  split_code: null,
});

const dateIn = (ctx: TContext, name: string): number | null => {
  const value = ctx.query.get(name);
  if (value === null) return null;
  const time = Date.parse(value);
  // Paystack's wording for a malformed date is not documented.
  if (Number.isNaN(time)) throw new PaystackRefusal(400, `${name} must be a date`);
  return time;
};

/** What the simulator keeps of Terminal: its terminals, payment requests and events sent. */
type TTerminalStore = {
  byTerminal: Map<string, TSimTerminal>;
  requests: Map<number, TPaymentRequest>;
  events: Map<string, TTerminalEvent>;
};

const terminalOf = (store: TTerminalStore, ctx: TContext): TSimTerminal => {
  const terminal = store.byTerminal.get(decodeURIComponent(ctx.segments[1] ?? ''));
  // Paystack's wording for an unknown terminal is not documented.
  if (!terminal) throw new PaystackRefusal(404, 'Terminal not found');
  return terminal;
};

const requestOf = (store: TTerminalStore, idOrCode: string): TPaymentRequest => {
  const found = [...store.requests.values()].find(
    (request) => String(request.id) === idOrCode || request.request_code === idOrCode,
  );
  // Paystack's wording for an unknown payment request is not documented.
  if (!found) throw new PaystackRefusal(404, 'Payment request not found');
  return found;
};

/** POST and GET /paymentrequest, GET /paymentrequest/verify/{code} and /paymentrequest/{id}. */
const paymentRequestRoutes = (state: TSimState, store: TTerminalStore): TRoute[] => {
  const create = (ctx: TContext) => {
    const customerKey = requiredString(ctx.body, 'customer');
    const customer = state.findCustomer(customerKey);
    if (!customer) throw new PaystackRefusal(400, 'Customer not found');
    const amount = amountIn(ctx.body);
    const id = state.newId();
    const request: TPaymentRequest = {
      id,
      request_code: `PRQ_${randomCode(15)}`,
      offline_reference: `${INTEGRATION_ID}${id}`,
      amount,
      currency: optionalString(ctx.body, 'currency') ?? 'NGN',
      description: optionalString(ctx.body, 'description') ?? null,
      customerId: customer.id,
      customerCode: customer.customer_code,
      status: 'pending',
      paidAt: null,
      createdAt: state.now(),
      archived: false,
      transaction: null,
    };
    store.requests.set(id, request);
    ctx.later.push(() => state.send('paymentrequest.pending', requestFields(request)));
    return ok('Payment request created', requestFields(request));
  };

  const list = (ctx: TContext) => {
    const from = dateIn(ctx, 'from');
    const to = dateIn(ctx, 'to');
    const customer = ctx.query.get('customer');
    const status = ctx.query.get('status');
    const found = [...store.requests.values()]
      .filter(
        (request) =>
          !request.archived &&
          (customer === null ||
            customer === request.customerCode ||
            customer === String(request.customerId)) &&
          (status === null || status === request.status) &&
          (from === null || request.createdAt.getTime() >= from) &&
          (to === null || request.createdAt.getTime() <= to),
      )
      .sort((a, b) => b.id - a.id)
      .map(requestFields);
    return listPage(ctx, 'Payment requests retrieved', found);
  };

  const verify = (ctx: TContext) => {
    const request = requestOf(store, decodeURIComponent(ctx.segments[2] ?? ''));
    // "An archived payment request cannot be verified": the wording of the refusal is assumed.
    if (request.archived) throw new PaystackRefusal(404, 'Payment request not found');
    const customer = state.findCustomer(request.customerCode);
    return ok('Payment request retrieved', {
      ...requestFields(request),
      integration: {
        key: 'pk_test_simulator',
        name: 'Simulator',
        logo: '',
        allowed_currencies: ['NGN'],
      },
      pdf_url: null,
      customer: customer
        ? {
            id: customer.id,
            first_name: customer.first_name ?? '',
            last_name: customer.last_name ?? '',
            email: customer.email,
            customer_code: customer.customer_code,
            phone: customer.phone ?? '',
            metadata: { calling_code: '+234' },
            risk_action: 'default',
            international_format_phone: '',
          }
        : null,
      pending_amount: request.status === 'success' ? 0 : request.amount,
    });
  };

  const fetch = (ctx: TContext) => {
    const request = requestOf(store, decodeURIComponent(ctx.segments[1] ?? ''));
    return ok('Payment request retrieved', {
      ...requestFields(request),
      transactions: request.transaction ? [state.transactionFields(request.transaction)] : [],
      archived: request.archived,
    });
  };

  const archive = (ctx: TContext) => {
    const request = requestOf(store, decodeURIComponent(ctx.segments[2] ?? ''));
    request.archived = true;
    for (const terminal of store.byTerminal.values()) {
      if (terminal.showing === request.id) terminal.showing = null;
    }
    return ok('Payment request has been archived', undefined);
  };

  return [
    { method: 'POST', path: /^\/paymentrequest$/, handle: create },
    { method: 'GET', path: /^\/paymentrequest$/, handle: list },
    { method: 'GET', path: /^\/paymentrequest\/verify\/[^/]+$/, handle: verify },
    { method: 'POST', path: /^\/paymentrequest\/archive\/[^/]+$/, handle: archive },
    { method: 'GET', path: /^\/paymentrequest\/(?!verify$)[^/]+$/, handle: fetch },
  ];
};

/** POST /terminal/{id}/event, GET its event, the terminal's presence and the terminal. */
const terminalRoutes = (store: TTerminalStore): TRoute[] => {
  const sendEvent = (ctx: TContext) => {
    const terminal = terminalOf(store, ctx);
    const type = requiredString(ctx.body, 'type');
    const action = requiredString(ctx.body, 'action');
    const data = optionalObject(ctx.body, 'data') ?? {};
    // The OpenAPI description's enums; the refusals' wording is not documented.
    if (type !== 'invoice' && type !== 'transaction') {
      throw new PaystackRefusal(400, 'type must be one of invoice, transaction');
    }
    const actions = type === 'invoice' ? ['process', 'view'] : ['process', 'print'];
    if (!actions.includes(action)) throw new PaystackRefusal(400, `Invalid action for ${type}`);
    if (type !== 'invoice') throw new PaystackRefusal(400, 'Transaction events are not simulated');
    const request = requestOf(store, requiredString(data, 'id'));
    if (requiredString(data, 'reference') !== request.offline_reference) {
      throw new PaystackRefusal(400, 'Invalid offline reference');
    }
    const event: TTerminalEvent = {
      id: randomCode(24),
      terminalId: terminal.terminal_id,
      delivered: terminal.online,
    };
    store.events.set(event.id, event);
    if (event.delivered && action === 'process') terminal.showing = request.id;
    return ok('Event sent to Terminal', { id: event.id });
  };

  const eventStatus = (ctx: TContext) => {
    terminalOf(store, ctx);
    const event = store.events.get(decodeURIComponent(ctx.segments[3] ?? ''));
    // Paystack's wording for an unknown event is not documented.
    if (!event) throw new PaystackRefusal(404, 'Event not found');
    return ok('Message Status', { delivered: event.delivered });
  };

  const presence = (ctx: TContext) => {
    const terminal = terminalOf(store, ctx);
    const shown = terminal.showing === null ? undefined : store.requests.get(terminal.showing);
    return ok('Terminal status retrieved', {
      online: terminal.online,
      available: terminal.online && terminal.available && shown?.status !== 'pending',
    });
  };

  const fetchTerminal = (ctx: TContext) => {
    const terminal = terminalOf(store, ctx);
    return ok('Terminal retrieved', {
      id: Number(terminal.serial_number.replace(/\D/g, '').slice(-6) || '1'),
      serial_number: terminal.serial_number,
      device_make: null,
      terminal_id: terminal.terminal_id,
      integration: INTEGRATION_ID,
      domain: 'test',
      name: terminal.name,
      address: null,
      status: 'active',
      split_code: null,
    });
  };

  return [
    { method: 'POST', path: /^\/terminal\/[^/]+\/event$/, handle: sendEvent },
    { method: 'GET', path: /^\/terminal\/[^/]+\/event\/[^/]+$/, handle: eventStatus },
    { method: 'GET', path: /^\/terminal\/[^/]+\/presence$/, handle: presence },
    { method: 'GET', path: /^\/terminal\/[^/]+$/, handle: fetchTerminal },
  ];
};

/** The payer's card at the terminal, on the request it shows. */
async function cardAtTerminal(
  state: TSimState,
  store: TTerminalStore,
  terminalId: string,
  outcome: 'approved' | 'declined',
  options: { withNotices?: boolean },
): Promise<void> {
  const terminal = store.byTerminal.get(terminalId);
  const request = terminal?.showing ? store.requests.get(terminal.showing) : undefined;
  if (!terminal || !request || request.status !== 'pending') {
    throw new Error(`Terminal ${terminalId} shows no pending payment request`);
  }
  terminal.showing = null;
  if (outcome === 'declined') {
    request.status = 'failed';
    return;
  }
  const transaction = state.newTransaction({
    reference: `T${randomCode(14)}`,
    amount: request.amount,
    currency: request.currency,
    email: `pos_${randomCode(8)}@email.com`,
    channel: 'pos',
    metadata: 0,
  });
  const charged = state.succeed(transaction, 'Approved or completed successfully');
  request.status = 'success';
  request.paidAt = state.now();
  request.transaction = transaction;
  if (options.withNotices === false) return;
  await charged();
  await state.send('paymentrequest.success', requestFields(request));
}

export const terminals = (state: TSimState) => {
  const store: TTerminalStore = { byTerminal: new Map(), requests: new Map(), events: new Map() };
  const { byTerminal, requests } = store;

  return {
    routes: [...paymentRequestRoutes(state, store), ...terminalRoutes(store)],
    /** Registers a terminal on the integration (what commissioning a device does). */
    addTerminal: (terminalId: string, presence: { online: boolean; available?: boolean }) => {
      byTerminal.set(terminalId, {
        terminal_id: terminalId,
        serial_number: `SIM${terminalId}`,
        name: `Terminal ${terminalId}`,
        online: presence.online,
        available: presence.available ?? true,
        showing: null,
      });
    },
    /** A terminal going on or off line, or becoming busy. */
    setPresence: (terminalId: string, presence: { online: boolean; available?: boolean }) => {
      const terminal = byTerminal.get(terminalId);
      if (!terminal) throw new Error(`No terminal ${terminalId}`);
      terminal.online = presence.online;
      terminal.available = presence.available ?? true;
    },
    /** The payer's card at the terminal, on the request it shows. */
    cardAtTerminal: (
      terminalId: string,
      outcome: 'approved' | 'declined',
      options: { withNotices?: boolean } = {},
    ): Promise<void> => cardAtTerminal(state, store, terminalId, outcome, options),
    /** The payment request a terminal shows, by its request code; null when it shows none. */
    showing: (terminalId: string): string | null => {
      const id = byTerminal.get(terminalId)?.showing;
      return id ? (requests.get(id)?.request_code ?? null) : null;
    },
    /** How many payment requests were made (one per reference, whatever was retried). */
    requestCount: () => requests.size,
  };
};
