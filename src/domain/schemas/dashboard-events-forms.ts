import { z } from 'zod/mini';
import { ZDay } from './dashboard';
import { ZIdentifier, ZPrintable } from './fields';
import { ZMerchantConsentMandate } from './merchant-api';
import { ZWebhookEventType } from './webhooks';

/*
 * The dashboard's Events and Forms screens (docs/dashboard.md "Screens"): the merchant API's own
 * event list (GET /api/v1/events) by type and Lagos days, the merchant's forms, and one form's
 * responses with who answered (the consent and the payer's accounts, masked as the merchant API
 * shows them) and the answers (GET /api/v1/forms/{formId}/responses/{responseId}).
 */

const ok = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ success: z.literal(true), ...shape });

const ZCursor = z.optional(ZPrintable(200));

/** GET /api/dashboard/events: every filter optional; the days are Lagos days, both included. */
export const ZDashboardEventsQuery = z.object({
  type: z.optional(ZWebhookEventType),
  from: z.optional(ZDay),
  to: z.optional(ZDay),
  cursor: ZCursor,
});
export type TDashboardEventsQuery = z.infer<typeof ZDashboardEventsQuery>;

export const ZFormIdParams = z.object({ formId: ZIdentifier });
export const ZFormResponseIdParams = z.object({ formId: ZIdentifier, responseId: ZIdentifier });
export const ZDashboardPageQuery = z.object({ cursor: ZCursor });

/** One of the merchant's forms as its newest version names it. */
export const ZDashboardForm = z.object({
  formId: z.string(),
  /** The API client that made it: the one whose credentials read its responses. */
  clientId: z.string(),
  /** The newest version's title, placeholders as written. */
  title: z.string(),
  latestVersion: z.number().check(z.int()),
  /** Responses payers started, submitted or not. */
  responses: z.number().check(z.int()),
  createdAt: z.string(),
});
export type TDashboardForm = z.infer<typeof ZDashboardForm>;

export const ZDashboardFormsResponse = ok({
  forms: z.array(ZDashboardForm),
  nextCursor: z.nullable(z.string()),
});

/** A payer's response to a form: who (their consent, their accounts masked) and when. */
export const ZDashboardFormRespondent = z.object({
  responseId: z.string(),
  formVersion: z.number().check(z.int()),
  consentId: z.string(),
  /** The merchant's own reference of the consent. */
  reference: z.nullable(z.string()),
  /** The accounts the payer chose, as the merchant API shows them: bank and last 4 digits. */
  mandates: z.array(ZMerchantConsentMandate),
  startedAt: z.string(),
  updatedAt: z.string(),
  /** When the grant made the answers final; null: not yet. */
  submittedAt: z.nullable(z.string()),
});
export type TDashboardFormRespondent = z.infer<typeof ZDashboardFormRespondent>;

/** GET /api/dashboard/forms/{formId}: the form and a page of its responses, newest first. */
export const ZDashboardFormResponse = ok({
  form: ZDashboardForm,
  responses: z.array(ZDashboardFormRespondent),
  nextCursor: z.nullable(z.string()),
});
export type TDashboardFormRead = z.infer<typeof ZDashboardFormResponse>;
