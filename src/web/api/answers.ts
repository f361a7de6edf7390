// The schemas of the answers the page parses, by name: apiFetch (http.ts) names one, and this
// module loads the domain module that holds it at the first call that needs it. Not with the
// page: the consent's first screen, drawn by the server, is taken over without parsing anything
// (src/web/main.tsx). Not all at once either: building every schema of the page is tens of
// milliseconds of a phone's main thread in one task; module by module, each call builds only
// what it parses.

import type { z } from 'zod/mini';
// Before any schema is built: zod reads its configuration when it builds one.
import './zod-config';
import { nextTask } from './next-task';

const fields = () => import('../../domain/schemas/fields');
const auth = () => import('../../domain/schemas/auth');
const cardTerminal = () => import('../../domain/schemas/card-terminal');
const card = () => import('../../domain/schemas/card');
const consentApi = () => import('../../domain/schemas/consent-api');
const consent = () => import('../../domain/schemas/consent');
const consentRecord = () => import('../../domain/schemas/consent-record');
const form = () => import('../../domain/schemas/form');
const payerConsents = () => import('../../domain/schemas/payer-consents');
const debitNotices = () => import('../../domain/schemas/debit-notices');
const payerRights = () => import('../../domain/schemas/payer-rights');
const payerProtections = () => import('../../domain/schemas/payer-protections');
const sandbox = () => import('../../domain/schemas/sandbox');
const identity = () => import('../../domain/schemas/identity');
const userAccount = () => import('../../domain/schemas/user-account');
const accountLink = () => import('../../domain/schemas/account-link');

/**
 * A module whose schemas the first screen may need at once, its own imports loaded first, each
 * in a task of its own: together they build too many schemas for one task on a phone.
 */
function inTurn<M>(before: (() => Promise<unknown>)[], load: () => Promise<M>) {
  let loaded: Promise<M> | undefined;
  const inOrder = async (): Promise<M> => {
    for (const dependency of before) {
      await dependency();
      await nextTask();
    }
    return load();
  };
  // Once: a later call has its module at once, as import() would give it.
  return (): Promise<M> => (loaded ??= inOrder());
}

/** Immediate Payment's: its state and its event stream's ticket, asked as soon as it is drawn. */
const payment = inTurn(
  [fields, userAccount, consent, card],
  () => import('../../domain/schemas/payment'),
);

/** Each answer's schema, by the module that exports it under the same name. */
export const ANSWER_MODULES = {
  ZAuthMeResponse: auth,
  ZDiscoveryResponse: auth,
  ZGrantChallengeResponse: auth,
  ZGrantSignatureResponse: auth,
  ZLoginResponse: auth,
  ZOkResponse: auth,
  ZPasskeyRegisterResponse: auth,
  ZPasskeyRegistrationOptionsResponse: auth,
  ZPasskeyRemovalAnswer: auth,
  ZPasskeyRemovalCancelResponse: auth,
  ZPasskeyRemoveResponse: auth,
  ZPasskeysResponse: auth,
  ZPhoneCodeResponse: auth,
  ZPublicConfigResponse: auth,
  ZStepUpResponse: auth,
  ZWebAuthnOptionsResponse: auth,
  ZChipPurchaseResponse: cardTerminal,
  ZTerminalFetchKeysResponse: cardTerminal,
  ZPaymentTerminalsResponse: cardTerminal,
  ZTerminalPushResponse: cardTerminal,
  ZCardChargeResponse: card,
  ZCardCompleteResponse: card,
  ZEncryptionPublicKeyResponse: card,
  ZSaveCardResponse: card,
  ZDeclineResponse: consentApi,
  ZGrantResponse: consentApi,
  ZConsentReadResponse: consent,
  ZConsentRecordResponse: consentRecord,
  ZReceiptResponse: consentRecord,
  ZFormReadResponse: form,
  ZSaveFormSectionResponse: form,
  ZPayerConsentsResponse: payerConsents,
  ZRevocationChallengeResponse: payerConsents,
  ZRevokeConsentResponse: payerConsents,
  ZDebitNoticeResponse: debitNotices,
  ZPayerRightsResponse: payerRights,
  ZPayerRightsRequestResponse: payerRights,
  ZPayerExportResponse: payerRights,
  ZBvnLookupsResponse: payerProtections,
  ZComplaintResponse: payerProtections,
  ZComplaintsResponse: payerProtections,
  ZCancelAttemptResponse: payment,
  ZPaymentStateResponse: payment,
  ZStreamTicketResponse: payment,
  ZTransferConfirmResponse: payment,
  ZTransferDetailsResponse: payment,
  ZSandboxFixturesResponse: sandbox,
  ZSandboxTerminalReadResponse: sandbox,
  ZBvnCodeResponse: identity,
  ZBvnSendCodeResponse: identity,
  ZBvnStatusResponse: identity,
  ZPhoneChangeResponse: identity,
  ZAccountSearchResponse: userAccount,
  ZBvnAccountsResponse: userAccount,
  ZDeleteAccountResponse: userAccount,
  ZUserAccountsResponse: userAccount,
  ZAltServiceConfirmResponse: accountLink,
  ZConfirmAccountLinkPaymentResponse: accountLink,
  ZCreateAccountLinkResponse: accountLink,
  ZLinkFromPaymentResponse: accountLink,
} as const;

type TModules = typeof ANSWER_MODULES;

/** The name of an answer's schema. */
export type TAnswerName = keyof TModules;

/** The schema an answer's name stands for. */
export type TAnswerSchema<K extends TAnswerName> = Extract<
  Awaited<ReturnType<TModules[K]>> extends infer M ? (K extends keyof M ? M[K] : never) : never,
  z.ZodMiniType
>;

/** The names listed beside a module that does not export them: none, or the next line fails. */
type TMisplaced = {
  [K in TAnswerName]: K extends keyof Awaited<ReturnType<TModules[K]>> ? never : K;
}[TAnswerName];
type TNone<T extends never> = T;
export type TNoAnswerMisplaced = TNone<TMisplaced>;

/** The schema of an answer, its module loaded once. */
export async function answerSchema<K extends TAnswerName>(name: K): Promise<TAnswerSchema<K>> {
  const module = (await ANSWER_MODULES[name]()) as unknown as Record<K, TAnswerSchema<K>>;
  return module[name];
}
