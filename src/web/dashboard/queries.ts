import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import {
  ZApiKeysResponse,
  ZCapabilitiesResponse,
  ZAuditResponse,
  ZDashboardBanksResponse,
  ZDashboardSessionResponse,
  ZDashboardWebhooksResponse,
  ZDeadLettersResponse,
  ZDeliveriesResponse,
  ZInvitationLookupResponse,
  ZPaymentDetailResponse,
  ZPaymentSearchResponse,
  ZRequestLogResponse,
  ZTeamResponse,
} from '../../domain/schemas/dashboard';
import { ZDashboardConsentResponse } from '../../domain/schemas/dashboard-consents';
import {
  ZDashboardFormResponse,
  ZDashboardFormsResponse,
} from '../../domain/schemas/dashboard-events-forms';
import { ZSandboxToolsResponse } from '../../domain/schemas/dashboard-sandbox';
import { ZDashboardTerminalsResponse } from '../../domain/schemas/dashboard-terminals';
import { ZDashboardRoutesResponse } from '../../domain/schemas/dashboard-routes';
import { ZMerchantFormResponse } from '../../domain/schemas/form';
import { ZMerchantConsentsResponse } from '../../domain/schemas/merchant-api';
import { ZMerchantEventsResponse } from '../../domain/schemas/webhooks';
import { dashboardCall, setCsrfToken } from './api';

/*
 * Every read of the dashboard, by its query key, with its fetcher: a screen takes its
 * `{ queryKey, queryFn }` from `dashboardQueries`, and a change invalidates the keys of
 * `dashboardKeys` it touched. A key is a prefix of the keys under it: invalidating
 * `dashboardKeys.payments` refreshes every search of payments, `dashboardKeys.deliveries` the
 * dead letters too (a resend changes both).
 */
export const dashboardKeys = {
  session: ['dashboard', 'session'],
  payments: ['dashboard', 'payments'],
  payment: ['dashboard', 'payment'],
  banks: ['dashboard', 'banks'],
  consents: ['dashboard', 'consents'],
  consent: ['dashboard', 'consent'],
  events: ['dashboard', 'events'],
  forms: ['dashboard', 'forms'],
  team: ['dashboard', 'team'],
  audit: ['dashboard', 'audit'],
  invitation: ['dashboard', 'invitation'],
  keys: ['dashboard', 'keys'],
  capabilities: ['dashboard', 'capabilities'],
  webhooks: ['dashboard', 'webhooks'],
  deliveries: ['dashboard', 'deliveries'],
  deadLetters: ['dashboard', 'deliveries', 'dead-letters'],
  requests: ['dashboard', 'requests'],
  sandbox: ['dashboard', 'sandbox'],
  terminals: ['dashboard', 'terminals'],
  routes: ['dashboard', 'routes'],
} as const;

/** The filters of the payments' search, as the address holds them. */
export const PAYMENT_FILTER_NAMES = ['q', 'status', 'amount', 'from', 'to'] as const;
export type TPaymentFilters = Record<(typeof PAYMENT_FILTER_NAMES)[number], string>;

/** The filters of the consents' search, as the address holds them. */
export const CONSENT_FILTER_NAMES = ['reference', 'status'] as const;
export type TConsentFilters = Record<(typeof CONSENT_FILTER_NAMES)[number], string>;

/** The filters of the events' search. */
export type TEventFilters = { type: string; from: string; to: string };

/** The payments' search query: naira typed, kobo asked. */
function paymentsQuery(filters: TPaymentFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.status) params.set('status', filters.status);
  const naira = Number(filters.amount.replace(/,/g, ''));
  if (filters.amount.trim() && Number.isFinite(naira)) {
    params.set('amount', String(Math.round(naira * 100)));
  }
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

function consentsQuery(filters: TConsentFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.reference.trim()) params.set('reference', filters.reference.trim());
  if (filters.status) params.set('status', filters.status);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

function eventsQuery(filters: TEventFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

const cursorQuery = (cursor: string | null) =>
  cursor ? `?${new URLSearchParams({ cursor }).toString()}` : '';

const at = (id: string) => encodeURIComponent(id);

/** A read of one answer. */
const get = <S extends z.ZodMiniType>(queryKey: readonly unknown[], path: string, schema: S) =>
  queryOptions({ queryKey, queryFn: () => dashboardCall(path, schema) });

/** A list read a page at a time: each page names the cursor of the next. */
const paged = <T extends { nextCursor: string | null }>(
  queryKey: readonly unknown[],
  read: (cursor: string | null) => Promise<T>,
) =>
  infiniteQueryOptions({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => read(pageParam),
    getNextPageParam: (page: T) => page.nextCursor,
  });

/** Reads of the payments, consents, events and forms. */
const records = {
  payments: (filters: TPaymentFilters) =>
    paged([...dashboardKeys.payments, filters], (cursor) =>
      dashboardCall(`/payments?${paymentsQuery(filters, cursor)}`, ZPaymentSearchResponse),
    ),
  payment: (paymentId: string) =>
    get(
      [...dashboardKeys.payment, paymentId],
      `/payments/${at(paymentId)}`,
      ZPaymentDetailResponse,
    ),
  banks: () => get(dashboardKeys.banks, '/banks', ZDashboardBanksResponse),
  consents: (filters: TConsentFilters) =>
    paged([...dashboardKeys.consents, filters], (cursor) =>
      dashboardCall(`/consents?${consentsQuery(filters, cursor)}`, ZMerchantConsentsResponse),
    ),
  consent: (consentId: string) =>
    get(
      [...dashboardKeys.consent, consentId],
      `/consents/${at(consentId)}`,
      ZDashboardConsentResponse,
    ),
  events: (filters: TEventFilters) =>
    paged([...dashboardKeys.events, filters], (cursor) =>
      dashboardCall(`/events?${eventsQuery(filters, cursor)}`, ZMerchantEventsResponse),
    ),
  forms: () =>
    paged(dashboardKeys.forms, (cursor) =>
      dashboardCall(`/forms${cursorQuery(cursor)}`, ZDashboardFormsResponse),
    ),
  form: (formId: string) =>
    paged([...dashboardKeys.forms, formId], (cursor) =>
      dashboardCall(`/forms/${at(formId)}${cursorQuery(cursor)}`, ZDashboardFormResponse),
    ),
  formResponse: (formId: string, responseId: string) =>
    get(
      [...dashboardKeys.forms, formId, 'responses', responseId],
      `/forms/${at(formId)}/responses/${at(responseId)}`,
      ZMerchantFormResponse,
    ),
};

/** Reads of the session, the team and the developers' tools. */
const settings = {
  /** The session; its CSRF token is kept for the writes (api.ts). */
  session: () =>
    queryOptions({
      queryKey: dashboardKeys.session,
      queryFn: async () => {
        const answer = await dashboardCall('/session', ZDashboardSessionResponse);
        setCsrfToken(answer.csrfToken);
        return answer;
      },
    }),
  team: () => get(dashboardKeys.team, '/team', ZTeamResponse),
  audit: () => get(dashboardKeys.audit, '/audit', ZAuditResponse),
  invitation: (token: string) =>
    queryOptions({
      queryKey: [...dashboardKeys.invitation, token],
      queryFn: () =>
        dashboardCall('/invitations/lookup', ZInvitationLookupResponse, {
          method: 'POST',
          body: { token },
        }),
    }),
  keys: () => get(dashboardKeys.keys, '/keys', ZApiKeysResponse),
  capabilities: () => get(dashboardKeys.capabilities, '/capabilities', ZCapabilitiesResponse),
  webhooks: () => get(dashboardKeys.webhooks, '/webhooks', ZDashboardWebhooksResponse),
  deliveries: () => get(dashboardKeys.deliveries, '/webhooks/deliveries', ZDeliveriesResponse),
  deadLetters: () => get(dashboardKeys.deadLetters, '/webhooks/dead-letters', ZDeadLettersResponse),
  requests: () => get(dashboardKeys.requests, '/requests', ZRequestLogResponse),
  sandbox: () => get(dashboardKeys.sandbox, '/sandbox', ZSandboxToolsResponse),
  terminals: () => get(dashboardKeys.terminals, '/terminals', ZDashboardTerminalsResponse),
  routes: () => get(dashboardKeys.routes, '/routes', ZDashboardRoutesResponse),
};

/** Each read's `{ queryKey, queryFn }`, for useQuery or useInfiniteQuery. */
export const dashboardQueries = { ...records, ...settings };
