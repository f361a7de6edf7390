import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { CARD_BRAND_NAMES } from '../../../domain/card-brand';
import { formatCardNumberInput } from '../../../domain/card-number';
import { ONE_TIME_ACCOUNT_TTL_MS } from '../../../domain/constants';
import { isConsentReturnPath, THREE_DS_RETURN_PARAM } from '../../../domain/in-app-browser';
import { formatNaira } from '../../../domain/money';
import { formatNigerianPhone } from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TRouteContext } from '../../context';
import type { TCardSummary } from '../../providers/payments';
import { newNonce, setPageHeaders } from '../../response-headers';
import { bankName } from '../bank-directory';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_BANKS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_PEOPLE,
  SANDBOX_READERS,
} from '../fixtures';
import { AppError } from '../../app-error';
import { escapeHtml, htmlPage, type THtmlPage } from '../../routes/html-page';
import { SANDBOX_CHALLENGE_SCRIPT, SANDBOX_HOME_SCRIPT } from './sandbox-page-scripts';

/** A charge reference as the network makes it (sandbox/sandbox-card-network.ts): base64url
 * characters, up to 600 of them, room for a longer payment reference inside one. */
const CHALLENGE_REFERENCE = /^[A-Za-z0-9_-]{1,600}$/;

const CHALLENGE_GONE = 'This challenge does not exist or has already been answered.';

/** Styles of both pages: panels, tables that become one card per row on a phone, forms. */
const PAGE_STYLE = `
  h2{font-size:1.1rem;margin:0 0 8px}
  .panel{background:#fff;border:1px solid #e4e7ec;border-radius:14px;padding:16px}
  .hint{color:#5b6472;font-size:.9rem;margin:0 0 12px}
  .status{min-height:1.5em;margin:12px 0 0;font-weight:600}
  .status p{margin:0}
  .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
  code,.num{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
  .num{white-space:nowrap}`;

const HOME_STYLE = `
  main{max-width:1120px}
  nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:8px 16px;padding:0;margin:0 0 24px}
  .block{margin:0 0 28px}
  .forms{display:grid;gap:16px}
  .panel label{display:block;font-weight:600;margin:0 0 4px}
  .panel input,.panel select{display:block;width:100%;margin:0 0 4px}
  .person dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 12px;margin:0 0 16px}
  .person dt{color:#5b6472}
  .person dd{margin:0;font-weight:600}
  table{width:100%;border-collapse:separate;border-spacing:0}
  caption{text-align:left;font-size:1.1rem;font-weight:700;padding:0 0 8px}
  caption .about{display:block;color:#5b6472;font-size:.9rem;font-weight:400}
  th,td{text-align:left;vertical-align:top}
  @media (max-width:767px){
    .stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
    .stack,.stack caption,.stack tbody,.stack tr{display:block}
    .stack tr{background:#fff;border:1px solid #e4e7ec;border-radius:14px;padding:10px 14px;margin:0 0 10px}
    .stack tbody th,.stack td{display:grid;grid-template-columns:7.5rem minmax(0,1fr);gap:8px;padding:3px 0;font-weight:400}
    .stack tbody th::before,.stack td::before{content:attr(data-label);color:#5b6472;font-weight:600}
  }
  @media (min-width:768px){
    .forms{grid-template-columns:1fr 1fr;align-items:start}
    .stack{background:#fff;border:1px solid #e4e7ec;border-radius:14px}
    .stack th,.stack td{padding:9px 12px;border-top:1px solid #eef0f3}
    .stack thead th{border-top:0;font-size:.85rem;color:#374151}
  }`;

const CHALLENGE_STYLE = `
  main{max-width:480px}
  .issuer{display:inline-block;margin:0 0 12px;padding:2px 10px;border-radius:999px;background:#e0e7ff;color:#1e3a8a;font-size:.85rem;font-weight:600}
  dl{margin:0 0 16px;display:grid;gap:8px}
  dl div{display:flex;justify-content:space-between;align-items:baseline;gap:12px;flex-wrap:wrap}
  dt{color:#5b6472}
  dd{margin:0;font-weight:600}
  .amount{font-size:1.4rem}
  .actions{display:grid;grid-template-columns:1fr 1fr;gap:12px}
  .actions button{padding:12px 16px}
  button.secondary{background:#fff;color:#1f2937;border:1px solid #8a93a3}`;

type TTable = {
  id: string;
  caption: string;
  /** A line under the caption: how to use the rows. */
  about?: string;
  headers: readonly string[];
  /** Cells as markup, already escaped; the first names the row. */
  rows: readonly (readonly string[])[];
};

/**
 * A table of rows that stacks into one card per row on a phone. The ARIA roles keep its table
 * meaning where CSS display changes would drop it (WebKit), and each cell repeats its column's
 * name for the stacked layout.
 */
function table({ id, caption, about, headers, rows }: TTable): string {
  const label = (index: number) => escapeHtml(headers[index] ?? '');
  const head = headers
    .map((header) => `<th scope="col" role="columnheader">${escapeHtml(header)}</th>`)
    .join('');
  const body = rows
    .map(
      ([first = '', ...rest]) =>
        `<tr role="row"><th scope="row" role="rowheader" data-label="${label(0)}">${first}</th>` +
        rest
          .map((cell, i) => `<td role="cell" data-label="${label(i + 1)}">${cell}</td>`)
          .join('') +
        '</tr>',
    )
    .join('\n');
  return `<table id="${id}" class="stack" role="table">
<caption>${escapeHtml(caption)}${about ? `<span class="about">${escapeHtml(about)}</span>` : ''}</caption>
<thead role="rowgroup"><tr role="row">${head}</tr></thead>
<tbody role="rowgroup">
${body}
</tbody></table>`;
}

const num = (text: string) => `<span class="num">${escapeHtml(text)}</span>`;
const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

function cardsTable(): string {
  return table({
    id: 'cards',
    caption: 'Test cards',
    about:
      'Pay with a card: enter its number, expiry and CVV exactly as listed, then its PIN or OTP when asked. Each card is issued on one test account and links that account only.',
    headers: [
      'Card number',
      'Brand',
      'Expiry',
      'CVV',
      'PIN',
      'OTP',
      'Scenario',
      'Issued on',
      'What happens',
    ],
    rows: SANDBOX_CARDS.map((card) => [
      num(formatCardNumberInput(card.number)),
      escapeHtml(CARD_BRAND_NAMES[card.brand]),
      num(card.expiry),
      num(card.cvv),
      num(card.pin),
      num(card.otp),
      code(card.scenario),
      `${num(card.account.accountNumber)} ${escapeHtml(bankName(card.account.institutionCode) ?? card.account.institutionCode)}`,
      escapeHtml(card.description),
    ]),
  });
}

function chipCardsTable(): string {
  return table({
    id: 'chip-cards',
    caption: 'Chip cards for the card reader',
    about:
      "Pay with 'Chip Card Terminal': choose the sandbox reader, insert one of these cards and enter its PIN on the reader.",
    headers: ['Card number', 'Brand', 'Expiry', 'PIN', 'Scenario', 'What happens'],
    rows: SANDBOX_CHIP_CARDS.map((card) => [
      num(formatCardNumberInput(card.number)),
      escapeHtml(CARD_BRAND_NAMES[card.brand]),
      num(card.expiry),
      num(card.pin),
      code(card.scenario),
      escapeHtml(card.description),
    ]),
  });
}

function readersTable(): string {
  return table({
    id: 'readers',
    caption: 'Card readers',
    about: 'Readers registered with the sandbox acquirer (docs/terminal.md).',
    headers: ['Serial', 'Terminal ID', 'Merchant ID'],
    rows: SANDBOX_READERS.map((reader) => [num(reader.serial), num(reader.tid), num(reader.mid)]),
  });
}

function accountsTable(): string {
  return table({
    id: 'accounts',
    caption: 'Test accounts',
    about: 'Enter one of these numbers where a consent asks you to link an account.',
    headers: ['Account number', 'Bank', 'Account name', 'Holder BVN', 'Scenario', 'What happens'],
    rows: SANDBOX_ACCOUNTS.map((account) => [
      num(account.accountNumber),
      escapeHtml(bankName(account.institutionCode) ?? account.institutionCode),
      escapeHtml(account.accountName),
      num(account.bvn),
      code(account.scenario),
      escapeHtml(account.description),
    ]),
  });
}

function peopleTable(): string {
  return table({
    id: 'people',
    caption: 'Test people (BVNs)',
    about:
      'The BVN registry: a code proving a BVN goes to the phone it is registered with, listed under that number on the SMS messages page. One BVN belongs to one payer: mint a new test person below for a fresh one.',
    headers: ['BVN', 'Name', 'Date of birth', 'Registered phone', 'Note'],
    rows: SANDBOX_PEOPLE.map((person) => [
      num(person.bvn),
      escapeHtml(person.fullName),
      num(person.dateOfBirth),
      num(formatNigerianPhone(person.phoneNumber)),
      escapeHtml(person.description),
    ]),
  });
}

function banksTable(): string {
  return table({
    id: 'banks',
    caption: 'Banks',
    headers: ['Code', 'Name', 'Integrations'],
    rows: SANDBOX_BANKS.map((bank) => [
      num(bank.institutionCode),
      escapeHtml(bank.name),
      bank.integrations.length > 0 ? bank.integrations.map(code).join(', ') : 'None',
    ]),
  });
}

/** A form that POSTs through the page's script; its answer is read out from its status line. */
function actionForm(form: {
  id: string;
  heading: string;
  about: string;
  fields: string;
  button: string;
}): string {
  return `<form id="${form.id}" class="panel" aria-labelledby="${form.id}-heading" novalidate>
<h2 id="${form.id}-heading">${form.heading}</h2>
<p class="hint">${form.about}</p>
${form.fields}
<button type="submit">${form.button}</button>
<p id="${form.id}-status" class="status" role="status"></p>
</form>`;
}

const accountNumberField = (formId: string, hint: string) => `
<label for="${formId}-account">One-time account number</label>
<input id="${formId}-account" name="accountNumber" inputmode="numeric" autocomplete="off" maxlength="10" aria-describedby="${formId}-account-hint">
<p id="${formId}-account-hint" class="hint">${hint}</p>`;

/**
 * 'From account': the test account the transfer's notice names as its sender, or none. A value is
 * 'institutionCode:accountNumber', as the page's script splits it into the call's `from`.
 */
const senderField = () => {
  const options = SANDBOX_ACCOUNTS.map((account) => {
    const bank = bankName(account.institutionCode) ?? account.institutionCode;
    const value = `${account.institutionCode}:${account.accountNumber}`;
    const text = `${bank} · ${account.accountNumber} · ${account.accountName}`;
    return `<option value="${escapeHtml(value)}">${escapeHtml(text)}</option>`;
  }).join('\n');
  return `
<label for="transfer-from">From account</label>
<select id="transfer-from" name="from" aria-describedby="transfer-from-hint">
<option value="">Unknown sender</option>
${options}
</select>
<p id="transfer-from-hint" class="hint">The test account the bank's notice names as the sender, so the payment can offer to link it. With Unknown sender the notice names none. An account link's test transfer must come from the account being linked: from any other, or an unknown sender, it is returned.</p>`;
};

/** 'New test person': mints one (POST /api/sandbox/people); the script shows what it got. */
const personForm = () =>
  actionForm({
    id: 'person',
    heading: 'New test person',
    about:
      'Mints a person with a new BVN, an account for every account scenario and a card for every card scenario, all held under that BVN. Their card numbers are shown only here, once.',
    fields: `
<label for="person-name">Full name (optional)</label>
<input id="person-name" name="fullName" autocomplete="off" maxlength="100" aria-describedby="person-name-hint">
<p id="person-name-hint" class="hint">Made up when left empty.</p>
<label for="person-phone">Registered phone (optional)</label>
<input id="person-phone" name="phoneNumber" inputmode="tel" autocomplete="off" maxlength="40" aria-describedby="person-phone-hint">
<p id="person-phone-hint" class="hint">The phone the BVN is registered with, for example 0803 123 4567: its codes appear on the SMS messages page. A fresh number when left empty.</p>`,
    button: 'Create test person',
  });

function homeBody(config: TConfig): string {
  const transfer = actionForm({
    id: 'transfer',
    heading: 'Send a transfer',
    about:
      "Pays a one-time account as the payer's bank would. The exact amount completes the payment or proves the account being linked; another amount, a transfer after expiry, a second transfer, or a test transfer from another account is returned to the sender.",
    fields: `${accountNumberField('transfer', "10 digits, from the payment's transfer details.")}
<label for="transfer-amount">Amount in naira</label>
<input id="transfer-amount" name="amount" inputmode="decimal" autocomplete="off" aria-describedby="transfer-amount-hint">
<p id="transfer-amount-hint" class="hint">For example 2500.00</p>${senderField()}`,
    button: 'Send transfer',
  });
  const expire = actionForm({
    id: 'expire',
    heading: 'Expire a one-time account',
    about: `One-time accounts expire ${ONE_TIME_ACCOUNT_TTL_MS / 60_000} minutes after they are issued. This moves the expiry to now, to try a late transfer without waiting.`,
    fields: accountNumberField('expire', '10 digits.'),
    button: 'Expire this account now',
  });
  const messagesLink =
    config.smsProvider === 'sandbox'
      ? '<li><a href="/sandbox/messages">SMS messages sent in the sandbox</a></li>'
      : '';
  return `<h1>Sandbox network</h1>
<p class="note">A simulated bank and card network for trying ${escapeHtml(config.productName)} by hand. Nothing here moves real money: these banks, accounts and cards exist only in this sandbox, and each one takes the same path every time.</p>
<nav aria-label="On this page"><ul>
<li><a href="#people">Test people (BVNs)</a></li>
<li><a href="#person">New test person</a></li>
<li><a href="#cards">Test cards</a></li>
<li><a href="#chip-cards">Chip cards for the card reader</a></li>
<li><a href="#transfer">Send a transfer</a></li>
<li><a href="#expire">Expire a one-time account</a></li>
<li><a href="#accounts">Test accounts</a></li>
<li><a href="#banks">Banks</a></li>
<li><a href="#readers">Card readers</a></li>
${messagesLink}
<li><a href="/api/sandbox/fixtures">The same data as JSON</a></li>
</ul></nav>
<div class="block">${peopleTable()}</div>
<div class="block">
${personForm()}
<section id="person-details" class="person" aria-label="The new test person" hidden></section>
</div>
<div class="block">${cardsTable()}</div>
<div class="block">${chipCardsTable()}</div>
<div class="block forms">
${transfer}
${expire}
</div>
<div class="block">${accountsTable()}</div>
<div class="block">${banksTable()}</div>
<div class="block">${readersTable()}</div>`;
}

/** The consent page to go back to, when the page opened the challenge in its own window. */
function returnPathOf(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown>;
  const path = query[THREE_DS_RETURN_PARAM];
  return typeof path === 'string' && isConsentReturnPath(path) ? path : null;
}

const returnLink = (path: string | null) =>
  path ? `\n<p><a href="${escapeHtml(path)}">Return to the payment</a></p>` : '';

function challengeBody(
  reference: string,
  charge: { amount: number; card: TCardSummary },
  returnPath: string | null,
) {
  const back = returnPath ? ` data-return="${escapeHtml(returnPath)}"` : '';
  return `<p class="issuer">Sandbox issuer</p>
<h1>3-D Secure check</h1>
<p class="note">Your bank asks you to confirm this payment. In the sandbox no bank is asked and no real money moves.</p>
<section id="challenge" class="panel" aria-label="Payment to confirm" data-reference="${escapeHtml(reference)}"${back}>
<dl>
<div><dt>Amount</dt><dd class="amount">${escapeHtml(formatNaira(charge.amount))}</dd></div>
<div><dt>Card</dt><dd>${escapeHtml(CARD_BRAND_NAMES[charge.card.brand])} <span aria-hidden="true">•••• </span><span class="sr-only">ending in </span>${escapeHtml(charge.card.last4)}</dd></div>
</dl>
<div class="actions">
<button type="button" data-approved="true">Approve</button>
<button type="button" class="secondary" data-approved="false">Decline</button>
</div>
<div id="challenge-status" class="status" role="status"></div>
</section>`;
}

/** A person's browser asks for HTML; a script or test for anything else gets the catalogue. */
const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/**
 * The sandbox's pages for a person trying the product by hand (docs/sandbox.md): /sandbox with
 * the test data and the transfer and expiry forms, and the 3-D Secure challenge an issuer would
 * show. They call the sandbox's POST routes; with another payment provider none of them exist.
 */
export const sandboxPageRoutes: FastifyPluginAsync<TRouteContext> = async (
  app,
  { sandbox, config },
) => {
  if (!sandbox) return;
  const { cards } = sandbox;

  const sendPage = (reply: FastifyReply, page: Omit<THtmlPage, 'nonce' | 'productName'>) => {
    const nonce = newNonce();
    return setPageHeaders(reply, { nonce, frameAncestors: "'none'" }).send(
      htmlPage({ ...page, nonce, productName: config.productName }),
    );
  };

  const home = homeBody(config);
  app.get('/sandbox', async (_request, reply) =>
    sendPage(reply, {
      title: 'Sandbox network',
      body: home,
      style: PAGE_STYLE + HOME_STYLE,
      script: SANDBOX_HOME_SCRIPT,
    }),
  );

  // A wildcard, not a parameter: the router refuses parameters over 100 characters (414), and a
  // reference may have up to 600.
  app.get<{ Params: { '*': string } }>('/sandbox/3ds/*', async (request, reply) => {
    const reference = request.params['*'];
    if (!CHALLENGE_REFERENCE.test(reference)) {
      throw new AppError(
        'VALIDATION_FAILED',
        'reference: must be a base64url string of at most 600 characters',
      );
    }
    const charge = await cards.describeCharge(reference);
    // Opened in the consent page's own window (an app's browser): the way back to it.
    const returnPath = returnPathOf(request);
    if (!charge) {
      if (!wantsHtml(request)) throw new AppError('NOT_FOUND', CHALLENGE_GONE);
      return sendPage(reply.code(404), {
        title: '3-D Secure check',
        body: `<h1>3-D Secure check</h1>\n<p>${CHALLENGE_GONE}</p>${returnLink(returnPath)}`,
        style: PAGE_STYLE + CHALLENGE_STYLE,
      });
    }
    return sendPage(reply, {
      title: '3-D Secure check',
      body: challengeBody(reference, charge, returnPath),
      style: PAGE_STYLE + CHALLENGE_STYLE,
      script: SANDBOX_CHALLENGE_SCRIPT,
    });
  });
};
