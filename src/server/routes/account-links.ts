import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAltServiceConfirmRequest,
  ZAltServiceConfirmResponse,
  ZAltServiceCreateRequest,
  ZAltServiceCreateResponse,
  ZConfirmAccountLinkPaymentResponse,
  ZCreateAccountLinkRequest,
  ZCreateAccountLinkResponse,
  ZLinkFromPaymentRequest,
  ZLinkFromPaymentResponse,
} from '../../domain/schemas/account-link';
import { ZIdentifier } from '../../domain/schemas/fields';
import type { TRouteContext } from '../context';
import { newNonce, setPageHeaders } from '../response-headers';
import { AppError } from '../app-error';
import {
  confirmAccountLinkPayment,
  confirmAltMandate,
} from '../services/linking/link-confirmation';
import { createAccountLink } from '../services/linking/link-creation';
import { paperMandateOf } from '../services/linking/link-mandates';
import { linkOriginOfPayment } from '../services/linking/links-from-payments';
import { escapeHtml, htmlPage } from './html-page';
import { payerScope } from './payment-access';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';
import { countingOwnerLookups } from './owner-lookups';

const DATE_FORMAT = new Intl.DateTimeFormat('en-NG', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Africa/Lagos',
});

const MANDATE_STATE_TEXT = {
  created: 'Waiting for your signature',
  awaiting_authorisation: 'Waiting for your bank to approve the signed form',
  active: 'Approved by your bank',
  expired: 'Expired: start linking again for a new form',
  cancelled: 'Cancelled',
} as const;

const MANDATE_STYLE = `
  .form{background:#fff;border:1px solid #e4e7ec;border-radius:14px;padding:20px}
  dl{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:8px 16px;margin:0 0 20px}
  dt{color:#5b6472}
  dd{margin:0;font-weight:600;overflow-wrap:anywhere}
  .sign{display:grid;gap:28px;margin:28px 0 20px}
  .line{border-bottom:1px solid #111827;padding-bottom:4px;color:#5b6472}
  @media print{button,.note{display:none}body{background:#fff}.form{border:0;padding:0}}`;

const PRINT_SCRIPT = `document.getElementById('print').addEventListener('click',function(){window.print()});`;

/** The payer's guard, and the guard with the account-search count that a new link takes. */
type TLinkGuards = { guard: onRequestAsyncHookHandler; creating: onRequestAsyncHookHandler[] };

/** A link started, or made from the account a payment came from, and its payment checked. */
function registerAccountLinkRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  { guard, creating }: TLinkGuards,
) {
  api.post(
    '/api/account-links/create',
    {
      onRequest: creating,
      schema: {
        operationId: 'createAccountLink',
        summary: 'Start linking a bank account',
        body: ZCreateAccountLinkRequest,
        response: jsonAnswers({ 200: ZCreateAccountLinkResponse }),
      },
    },
    async (request, reply) => ({
      success: true as const,
      accountLink: await createAccountLink(
        countingOwnerLookups(ctx, request, reply),
        payerOf(request).payerId,
        request.body,
        'any',
      ),
    }),
  );

  api.post(
    '/api/account-links/from-payment',
    {
      onRequest: creating,
      idempotency: {
        scope: (request) =>
          payerScope('account-links.from-payment', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'linkAccountFromPayment',
        summary: 'Link the account a payment was paid from',
        body: ZLinkFromPaymentRequest,
        response: jsonAnswers({ 200: ZLinkFromPaymentResponse }),
      },
    },
    async (request, reply) =>
      linkOriginOfPayment(
        countingOwnerLookups(ctx, request, reply),
        payerOf(request).payerId,
        request.body,
      ),
  );

  api.post(
    '/api/account-links/confirm-payment/:id',
    {
      onRequest: guard,
      schema: {
        operationId: 'confirmAccountLinkPayment',
        summary: 'Check whether an account link’s payment arrived',
        params: z.object({ id: ZIdentifier }),
        response: jsonAnswers({ 200: ZConfirmAccountLinkPaymentResponse }),
      },
    },
    async (request) => confirmAccountLinkPayment(ctx, payerOf(request).payerId, request.params.id),
  );
}

/** A link by the alternate service: started, then confirmed with the bank's auth parameters. */
function registerAlternateServiceRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  { guard, creating }: TLinkGuards,
) {
  api.post(
    '/api/transactionservicealt/create',
    {
      onRequest: creating,
      schema: {
        operationId: 'createAltAccountLink',
        summary: 'Start linking a bank account by the alternate service',
        body: ZAltServiceCreateRequest,
        response: jsonAnswers({ 200: ZAltServiceCreateResponse }),
      },
    },
    async (request, reply) => ({
      success: true as const,
      accountLink: await createAccountLink(
        countingOwnerLookups(ctx, request, reply),
        payerOf(request).payerId,
        request.body,
        'alt',
      ),
    }),
  );

  api.post(
    '/api/transactionservicealt/confirm',
    {
      onRequest: guard,
      schema: {
        operationId: 'confirmAltAccountLink',
        summary: 'Confirm an alternate-service link with the bank’s auth parameters',
        body: ZAltServiceConfirmRequest,
        response: jsonAnswers({ 200: ZAltServiceConfirmResponse }),
      },
    },
    async (request) => confirmAltMandate(ctx, payerOf(request).payerId, request.body),
  );
}

/** The printable paper mandate form. */
function registerPaperMandateRoute(api: TZodApp, ctx: TRouteContext) {
  // The paper mandate's formUrl, opened in a new tab without the bearer token: its unguessable
  // id is what lets the payer in (docs/accounts.md "Paper mandates").
  api.get(
    '/mandates/:id',
    { schema: { params: z.object({ id: ZIdentifier }) } },
    async (request, reply) => {
      const mandate = await paperMandateOf(ctx, request.params.id);
      if (!mandate) throw new AppError('NOT_FOUND', 'No paper mandate has this id');
      const row = (label: string, value: string) =>
        `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`;
      const body = `<h1>Direct debit mandate</h1>
<p class="note">Print this form, sign it as your bank knows your signature, and take it to your bank (or send it as they ask). Your account is linked once your bank approves it.</p>
<section class="form" aria-label="Mandate form">
<dl>
${row('Mandate reference', mandate.reference)}
${row('Account holder', mandate.accountName)}
${row('Account number', mandate.accountNumber)}
${row('Bank', mandate.bankName)}
${row('Requested by', mandate.payerName)}
${row('Issued', DATE_FORMAT.format(mandate.issuedAt))}
${row('Valid until', DATE_FORMAT.format(mandate.expiresAt))}
${row('Status', MANDATE_STATE_TEXT[mandate.state])}
</dl>
<p>I authorise ${escapeHtml(mandate.bankName)} to pay direct debits from the account above that ${escapeHtml(ctx.config.productName)} presents under this mandate, for the payments I approve.</p>
<div class="sign"><div class="line">Signature</div><div class="line">Date</div></div>
</section>
<p><button type="button" id="print">Print this form</button></p>`;
      const nonce = newNonce();
      return setPageHeaders(reply, { nonce, frameAncestors: "'none'" }).send(
        htmlPage({
          title: 'Direct debit mandate',
          productName: ctx.config.productName,
          nonce,
          body,
          style: MANDATE_STYLE,
          script: PRINT_SCRIPT,
        }),
      );
    },
  );
}

/**
 * Linking a payer's bank account (spec §7; docs/accounts.md): the link by test transfer, auth
 * parameters or paper mandate, its confirmation, and the printable paper mandate form.
 */
export const accountLinkRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });
  // Each create asks the bank whose account the number is: counted like an account search.
  const creating = [guard, ctx.limits.accountSearches];
  registerAccountLinkRoutes(api, ctx, { guard, creating });
  registerAlternateServiceRoutes(api, ctx, { guard, creating });
  registerPaperMandateRoute(api, ctx);
};
