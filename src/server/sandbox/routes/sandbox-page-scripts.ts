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

/** /sandbox: 'Send a transfer' and 'Expire a one-time account'. */
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

/** /sandbox/3ds/{reference}: Approve or Decline, answered once. */
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
