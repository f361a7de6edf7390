/*
 * The inline scripts of the sandbox pages (sandbox-pages.ts), run with each answer's CSP nonce.
 * Plain browser JavaScript, no build step: they read the page's forms, POST JSON to the sandbox's
 * own calls (same origin: CSP connect-src 'self') and put the answer's sentence in the form's
 * live region. Call bodies follow src/domain/schemas/sandbox.ts.
 */

/** Shared by both pages: a POST of JSON (or of nothing), its answer's JSON, or null. */
const POST_JSON = `
  const postJson = async (url, payload) => {
    const init = { method: 'POST', headers: { Accept: 'application/json' } };
    if (payload !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(payload);
    }
    const response = await fetch(url, init);
    return response.json().catch(() => null);
  };
  const failureText = (body, fallback) =>
    body && body.error && typeof body.error.message === 'string' ? body.error.message : fallback;
  const UNREACHABLE = 'The server could not be reached. Try again.';`;

/** /sandbox: 'New test person', 'Send a transfer' and 'Expire a one-time account'. */
export const SANDBOX_HOME_SCRIPT = `(() => {
  'use strict';${POST_JSON}

  // Naira as typed ('2500', '2,500.5', '₦2500.00') to integer kobo, by joining digits: no
  // floating point ever touches the amount (0.29 naira is 29 kobo, not 28.999...).
  const nairaToKobo = (text) => {
    const match = /^(\\d{1,10})(?:\\.(\\d{1,2}))?$/.exec(text.replace(/[\\s,₦]/g, ''));
    if (!match) return null;
    const kobo = Number(match[1] + (match[2] || '').padEnd(2, '0'));
    return kobo > 0 ? kobo : null;
  };
  const accountNumberOf = (form) => form.elements.accountNumber.value.replace(/\\s/g, '');
  // 'From account': 'institutionCode:accountNumber' of a test account, or '' (Unknown sender).
  const senderOf = (form) => {
    const [institutionCode, accountNumber] = form.elements.from.value.split(':');
    return institutionCode && accountNumber ? { institutionCode, accountNumber } : null;
  };

  // submit(form): a sentence to show at once (the input is wrong), or the answer's sentence later.
  const wire = (id, submit) => {
    const form = document.getElementById(id);
    const status = document.getElementById(id + '-status');
    const button = form.querySelector('button[type="submit"]');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const outcome = submit(form);
      if (typeof outcome === 'string') {
        status.textContent = outcome;
        return;
      }
      button.disabled = true;
      status.textContent = 'Sending...';
      try {
        status.textContent = await outcome;
      } catch {
        status.textContent = UNREACHABLE;
      }
      button.disabled = false;
    });
  };

  wire('transfer', (form) => {
    const accountNumber = accountNumberOf(form);
    const amount = nairaToKobo(form.elements.amount.value);
    if (!/^\\d{10}$/.test(accountNumber)) return 'Enter the 10-digit one-time account number.';
    if (amount === null) return 'Enter the amount in naira, for example 2500.00.';
    const from = senderOf(form);
    const transfer = from ? { accountNumber, amount, from } : { accountNumber, amount };
    return postJson('/api/sandbox/transfers', transfer).then((body) =>
      body && body.success === true && typeof body.message === 'string'
        ? body.message
        : failureText(body, 'The transfer could not be sent.'),
    );
  });

  // The minted person's details, built with textContent only: the answer is data, never markup.
  const element = (tag, text, attributes) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    return node;
  };
  const detailsTable = (caption, headers, rows) => {
    const table = element('table');
    table.append(element('caption', caption));
    const head = element('tr');
    for (const header of headers) head.append(element('th', header, { scope: 'col' }));
    table.appendChild(element('thead')).append(head);
    const body = table.appendChild(element('tbody'));
    for (const [first, ...rest] of rows) {
      const row = body.appendChild(element('tr'));
      row.append(element('th', first, { scope: 'row' }), ...rest.map((cell) => element('td', cell)));
    }
    return table;
  };
  const showPerson = (person) => {
    const section = document.getElementById('person-details');
    const facts = element('dl');
    for (const [term, value] of [
      ['BVN', person.bvn],
      ['Name', person.fullName],
      ['Date of birth', person.dateOfBirth],
      ['Registered phone', person.phoneNumber],
    ]) {
      const line = facts.appendChild(element('div'));
      line.append(element('dt', term), element('dd', value));
    }
    const bankOf = {};
    for (const account of person.accounts) bankOf[account.accountNumber] = account.bankName;
    section.replaceChildren(
      element('h2', person.fullName + ', BVN ' + person.bvn),
      facts,
      detailsTable(
        'Their accounts',
        ['Account number', 'Bank', 'Account name', 'Scenario'],
        person.accounts.map((a) => [a.accountNumber, a.bankName, a.accountName, a.scenario]),
      ),
      detailsTable(
        'Their cards',
        ['Card number', 'Expiry', 'CVV', 'PIN', 'OTP', 'Scenario', 'Issued on'],
        person.cards.map((c) => [
          c.number.replace(/(.{4})(?=.)/g, '$1 '),
          c.expiry,
          c.cvv,
          c.pin,
          c.otp,
          c.scenario,
          c.account.accountNumber + ' ' + (bankOf[c.account.accountNumber] || ''),
        ]),
      ),
    );
    section.hidden = false;
    // Their accounts can send transfers too.
    const from = document.getElementById('transfer-from');
    for (const a of person.accounts) {
      const text = a.bankName + ' · ' + a.accountNumber + ' · ' + a.accountName;
      from.append(element('option', text, { value: a.institutionCode + ':' + a.accountNumber }));
    }
  };

  wire('person', (form) => {
    const fullName = form.elements.fullName.value.trim();
    const phoneNumber = form.elements.phoneNumber.value.trim();
    const input = {};
    if (fullName) input.fullName = fullName;
    if (phoneNumber) input.phoneNumber = phoneNumber;
    return postJson('/api/sandbox/people', input).then((body) => {
      if (!body || body.success !== true || !body.person) {
        return failureText(body, 'The test person could not be created.');
      }
      showPerson(body.person);
      return 'Created ' + body.person.fullName + ', BVN ' + body.person.bvn + ': their accounts and cards are listed below the form.';
    });
  });

  wire('expire', (form) => {
    const accountNumber = accountNumberOf(form);
    if (!/^\\d{10}$/.test(accountNumber)) return 'Enter the 10-digit one-time account number.';
    return postJson('/api/sandbox/virtual-accounts/' + accountNumber + '/expire').then((body) => {
      if (!body || body.success !== true || typeof body.expiresAt !== 'string') {
        return failureText(body, 'The account could not be expired.');
      }
      const at = new Date(body.expiresAt).toLocaleTimeString('en-NG', { timeZone: 'Africa/Lagos' });
      return 'Account ' + accountNumber + ' expired at ' + at + ' (Lagos time): a transfer to it now is returned to the sender.';
    });
  });
})();`;

/** /sandbox/3ds/{reference}: Approve or Decline, answered once; then back to the payment when
 * the page opened the challenge in its own window (data-return). */
export const SANDBOX_CHALLENGE_SCRIPT = `(() => {
  'use strict';${POST_JSON}

  const panel = document.getElementById('challenge');
  const status = document.getElementById('challenge-status');
  const buttons = [...panel.querySelectorAll('button[data-approved]')];
  const setDisabled = (disabled) => buttons.forEach((button) => { button.disabled = disabled; });
  const say = (...sentences) =>
    status.replaceChildren(...sentences.map((sentence) => {
      const line = document.createElement('p');
      line.textContent = sentence;
      return line;
    }));

  for (const button of buttons) {
    button.addEventListener('click', async () => {
      setDisabled(true);
      say('Sending your answer...');
      try {
        const body = await postJson(
          '/api/sandbox/3ds/' + encodeURIComponent(panel.dataset.reference),
          { approved: button.dataset.approved === 'true' },
        );
        if (body && body.success === true && typeof body.message === 'string') {
          // Opened in the payment's own window: back to it, where the payment goes on.
          const back = panel.dataset.return;
          if (back) {
            say(body.message, 'Returning to the payment...');
            window.location.assign(back);
            return;
          }
          say(body.message, 'You can close this tab and return to the payment.');
          return;
        }
        say(failureText(body, 'Your answer could not be sent.'));
      } catch {
        say(UNREACHABLE);
      }
      setDisabled(false);
    });
  }
})();`;
