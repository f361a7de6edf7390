/**
 * The pages a payer opens: the 3-D Secure page of a card charge (its open_url), the bank's page
 * where a direct-debit mandate is approved (its redirect_url), and the page Paystack ends a 3-D
 * Secure check on (standard.paystack.co/close, which the Charge API docs name).
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const naira = (kobo: number) =>
  `₦${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; background: #f4f6f8; color: #111; }
  main { max-width: 26rem; margin: 0 auto; background: #fff; border-radius: 8px; padding: 1.5rem; }
  h1 { font-size: 1.25rem; margin-top: 0; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { flex: 1; font-size: 1rem; padding: 0.75rem; border-radius: 6px; border: 1px solid #0b5; cursor: pointer; }
  button[value="approve"] { background: #0a7d3b; color: #fff; border-color: #0a7d3b; }
  button[value="decline"] { background: #fff; color: #a11; border-color: #a11; }
  button:focus-visible { outline: 3px solid #135; outline-offset: 2px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;

const answerForm = (
  action: string,
) => `<form method="post" action="${escapeHtml(action)}" class="actions">
  <button type="submit" name="answer" value="approve">Approve</button>
  <button type="submit" name="answer" value="decline">Decline</button>
</form>`;

export const threeDsPage = (input: {
  action: string;
  amount: number;
  last4: string;
  answered: 'approved' | 'declined' | null;
}) =>
  page(
    '3-D Secure check',
    `<h1>3-D Secure check</h1>
<p>Test bank: approve a payment of <strong>${naira(input.amount)}</strong> with the card ending ${escapeHtml(input.last4)}?</p>
${
  input.answered === null
    ? answerForm(input.action)
    : `<p role="status">This payment was already ${input.answered}. You can close this page.</p>`
}`,
  );

/**
 * The bank's page of a mandate: Approve and Decline are a form's submit buttons, so a keyboard
 * reaches them with Tab and presses them with Enter or Space. Once answered it says so and, when
 * the merchant gave a callback_url, links back to it (`returnTo`, with the mandate's reference).
 */
export const mandatePage = (input: {
  action: string;
  email: string;
  bankName: string;
  answered: 'approved' | 'declined' | null;
  returnTo: string | null;
}) => {
  if (input.answered === null) {
    return page(
      'Approve direct debit',
      `<h1>Approve direct debit</h1>
<p>Test bank: allow this merchant to debit the ${escapeHtml(input.bankName)} account of ${escapeHtml(input.email)} when it is due?</p>
${answerForm(input.action)}`,
    );
  }
  const title = input.answered === 'approved' ? 'Direct debit approved' : 'Direct debit declined';
  return page(
    title,
    `<h1>${title}</h1>
<p role="status">Done: this mandate was ${input.answered}.${input.returnTo ? '' : ' You can close this page.'}</p>
${input.returnTo ? `<p><a href="${escapeHtml(input.returnTo)}">Return to the merchant</a></p>` : ''}`,
  );
};

export const closePage = (outcome: string) =>
  page(
    'Done',
    `<h1>${escapeHtml(outcome)}</h1>
<p role="status">You can close this page.</p>`,
  );

export const notFoundPage = () =>
  page('Not found', '<h1>Not found</h1><p>This link is not known to the Paystack simulator.</p>');
