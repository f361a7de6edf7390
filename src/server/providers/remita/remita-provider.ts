import type { TMandateTerms } from '../../../domain/mandate-terms';
import type { TClock } from '../../clock';
import type { TDb } from '../../db/database';
import { providerReferencesOf } from '../provider-references';
import type {
  TAltMandate,
  TMandatePayer,
  TMandateSetupPort,
  TOwnMandates,
  TPayoutsByProvider,
} from '../payments';
import {
  remitaAmount,
  remitaCalls,
  remitaHash,
  remitaNoAnswer,
  type TRemitaAnswer,
  type TRemitaCalls,
  type TRemitaCredentials,
} from './remita-calls';
import { remitaDebits } from './remita-debits';

/*
 * Remita Direct Debit behind the mandates capability (docs/providers/remita.md): the spec's
 * alternate service is Remita's mandate activated by the bank's OTP and the last 4 digits of the
 * payer's card (its auth parameters), and its paper mandate is Remita's printable form, activated
 * at the bank's branch. Remita keeps the mandates, so their debits go to it too (own.debits).
 *
 * Each mandate is set up with our reference as its requestId, so a retried setup names the same
 * mandate; Remita's answer names its mandateId, which the link keeps (its providerReference) and
 * every later call about the mandate needs.
 */

export type TRemitaProviderOptions = {
  credentials: TRemitaCredentials;
  /** Where the adapter keeps what every process must know alike (provider-references.ts). */
  db: TDb;
  clock: TClock;
  /**
   * What gives back a debit Remita already took (it offers no refund of one): a payout, sent by
   * new work's payouts provider and asked about at the one that took it.
   */
  payouts: TPayoutsByProvider;
  timeoutMs?: number;
  /** How long to wait between the asks about a debit just sent, until Remita says it ended. */
  pendingCheckDelaysMs?: readonly number[];
};

/**
 * The banks Remita's Direct Debit reaches, by CBN code: the PDF's appendix 9.2 ("Bank Codes").
 * Which of them activate mandates by OTP Remita does not publish: its requestAuthorization says.
 */
export const REMITA_BANKS: ReadonlySet<string> = new Set([
  '023',
  '214',
  '011',
  '035',
  '039',
  '033',
  '101',
  '044',
  '050',
  '057',
  '063',
  '076',
  '082',
  '232',
  '032',
  '030',
  '301',
  '058',
  '070',
  '068',
  '100',
  '215',
]);

/** Where a payer's mandate is addressed: Remita asks an email, and we keep none of the payer's. */
export const remitaPayerEmail = (payerId: string) => `${payerId}@payers.example.com`;

/** DD/MM/YYYY, as Remita's setup takes its dates (Lagos' calendar day). */
function remitaDate(at: Date): string {
  const lagos = new Date(at.getTime() + 60 * 60 * 1_000);
  const dd = String(lagos.getUTCDate()).padStart(2, '0');
  const mm = String(lagos.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${lagos.getUTCFullYear()}`;
}

/** The payer's phone as Nigerian banks write it: 0803…, from +234803…. */
const localPhone = (e164: string) => (e164.startsWith('+234') ? `0${e164.slice(4)}` : e164);

export function remitaProvider(
  options: TRemitaProviderOptions,
): TMandateSetupPort & { own: TOwnMandates } {
  const client = remitaCalls(options.credentials, {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    now: () => options.clock.now(),
  });
  const { merchantId, apiKey, baseUrl } = options.credentials;

  const setUp = async (request: TSetupRequest): Promise<string | null> =>
    setUpMandate(client, request);

  /** Remita's record of the mandate (its mandate status call). */
  const mandateStatus = (requestId: string, mandateId: string) =>
    client.call('status', {
      merchantId,
      mandateId,
      requestId,
      hash: remitaHash(mandateId, merchantId, requestId, apiKey),
    });
  const isActive = (answer: TRemitaAnswer) =>
    answer.isActive === true || answer.isActive === 'true';

  /** Whether Remita holds the mandate active. */
  const mandateActive = async (requestId: string, mandateId: string): Promise<boolean> =>
    isActive(await mandateStatus(requestId, mandateId));

  /**
   * `stop` answered 061 Invalid Mandate (PDF section 9.1), which says only that Remita would not
   * stop it: it stops active mandates only (section 8), and 061 is also its answer to a mandate
   * it does not know by this reference. Its status decides: held and not active, nothing can be
   * debited on it; held active, or not known, it was not stopped, and the stop is tried again.
   */
  const invalidMandateEnd = async (requestId: string, mandateId: string) => {
    const status = await mandateStatus(requestId, mandateId);
    if (status.statuscode !== '00') {
      throw remitaNoAnswer('stop', `Remita knows no mandate ${mandateId} by our reference`);
    }
    if (isActive(status)) {
      throw remitaNoAnswer('stop', `Remita holds mandate ${mandateId} active and did not stop it`);
    }
    return 'not_active' as const;
  };

  const formUrl = (mandateId: string, requestId: string) =>
    `${baseUrl.replace(/\/+$/, '')}/remita/ecomm/mandate/form/${encodeURIComponent(merchantId)}/${remitaHash(merchantId, apiKey, requestId)}/${encodeURIComponent(mandateId)}/${encodeURIComponent(requestId)}/rest.reg`;

  return {
    provider: 'remita',

    async requestAltMandate({ payer, terms, ...request }) {
      if (!REMITA_BANKS.has(request.institutionCode)) return null;
      if (!payer || !terms) {
        throw remitaNoAnswer('setup', 'a mandate names its payer and the terms it allows');
      }
      const mandateId = await setUp({ ...request, payer, terms });
      if (!mandateId) return null;
      const answer = await client.call('requestAuthorization', {
        mandateId,
        requestId: request.reference,
      });
      // A bank not OTP-integrated with Remita activates only at its branch (PDF section 3 (a)).
      const mandate = altMandateOf(answer, request.reference);
      return mandate ? { ...mandate, providerReference: mandateId } : null;
    },

    async verifyAltMandate({ authReference, answers, reference, providerReference }) {
      const value = (param: string) =>
        answers.find((a) => a.param.toUpperCase() === param)?.value.trim() ?? '';
      const otp = value('OTP');
      const card = value('CARD');
      if (!otp || !card) return { verified: false };
      // An answer lost after Remita activated the mandate used the OTP up: sent again, it reads
      // as a wrong code. Where the answer is not '00', the mandate's status says whether it took.
      const activated = () =>
        providerReference ? mandateActive(reference, providerReference) : Promise.resolve(false);
      let answer: TRemitaAnswer;
      try {
        answer = await client.call('validateAuthorization', {
          remitaTransRef: authReference,
          authParams: [
            { param1: 'OTP', value: otp },
            { param2: 'CARD', value: card },
          ],
        });
      } catch (error) {
        if (await activated().catch(() => false)) return { verified: true };
        throw error;
      }
      // The status unknown, the answer stands as Remita gave it: a wrong try is counted.
      return { verified: answer.statuscode === '00' || (await activated().catch(() => false)) };
    },

    altMandateActive: ({ reference, providerReference }) =>
      providerReference ? mandateActive(reference, providerReference) : Promise.resolve(false),

    async paperMandateStatus({ reference, providerReference }) {
      if (!providerReference) return 'pending';
      return (await mandateActive(reference, providerReference)) ? 'approved' : 'pending';
    },

    own: {
      mandatesBank: (institutionCode) => REMITA_BANKS.has(institutionCode),
      async openPaperMandate(request) {
        const mandateId = await setUp(request);
        if (!mandateId) {
          throw remitaNoAnswer('setup', 'Remita set up no mandate for the account');
        }
        return { providerReference: mandateId, formUrl: formUrl(mandateId, request.reference) };
      },
      async stopMandate({ providerReference, reference }) {
        const answer = await client.call('stop', {
          merchantId,
          mandateId: providerReference,
          requestId: reference,
          hash: remitaHash(providerReference, merchantId, reference, apiKey),
        });
        switch (answer.statuscode) {
          case '00':
          case '066':
            return 'stopped';
          case '063':
            // Remita stops an expired mandate itself on its end date (PDF section 8).
            return 'expired';
          case '061':
            return invalidMandateEnd(reference, providerReference);
          default:
            throw remitaNoAnswer('stop', `Remita did not stop the mandate (${answer.statuscode})`);
        }
      },
      debits: remitaDebits({
        client,
        references: providerReferencesOf(options.db, options.clock, 'remita'),
        payouts: options.payouts,
        ...(options.pendingCheckDelaysMs
          ? { pendingCheckDelaysMs: options.pendingCheckDelaysMs }
          : {}),
      }),
    },
  };
}

type TSetupRequest = {
  reference: string;
  institutionCode: string;
  accountNumber: string;
  payer: TMandatePayer;
  terms: TMandateTerms;
};

/**
 * Sets up a mandate on the payer's account with our reference as its requestId (PDF section 2.1):
 * Remita's mandateId, or null when it refused the account. It allows what the consent it serves
 * grants, no more (PDF 2.1's fields): `amount` the most per debit, `maxNoOfDebits` the most debits
 * in a calendar month (Remita's documents name no frequency field: this is how a mandate says
 * how often), `startDate` and `endDate` the days debits may be made on.
 */
async function setUpMandate(client: TRemitaCalls, request: TSetupRequest): Promise<string | null> {
  const { merchantId, serviceTypeId, apiKey } = client.credentials;
  const { terms } = request;
  const amount = remitaAmount(terms.maxDebitKobo);
  const answer = await client.call('setup', {
    merchantId,
    serviceTypeId,
    hash: remitaHash(merchantId, serviceTypeId, request.reference, amount, apiKey),
    payerName: request.payer.fullName,
    payerEmail: remitaPayerEmail(request.payer.id),
    payerPhone: localPhone(request.payer.phoneNumber),
    payerBankCode: request.institutionCode,
    payerAccount: request.accountNumber,
    requestId: request.reference,
    amount,
    startDate: remitaDate(terms.startsAt),
    endDate: remitaDate(terms.endsAt),
    mandateType: 'DD',
    maxNoOfDebits: String(terms.maxDebitsPerMonth),
  });
  const mandateId = answer.mandateId;
  if (answer.statuscode !== '040' || typeof mandateId !== 'string' || !mandateId.trim()) {
    return null;
  }
  return mandateId.trim();
}

/** How the page labels one of Remita's parameters: its OTP, its card's last 4 digits. */
const labelOf = (param: string) =>
  param.toUpperCase() === 'CARD'
    ? 'Card last 4 digits'
    : param.toUpperCase() === 'OTP'
      ? 'OTP'
      : param;

/** requestAuthorization's answer as the spec's alternate-service mandate; null when refused. */
function altMandateOf(answer: TRemitaAnswer, requestId: string): TAltMandate | null {
  const params = Array.isArray(answer.authParams) ? (answer.authParams as unknown[]) : [];
  const remitaTransRef = answer.remitaTransRef;
  if (answer.statuscode !== '00' || typeof remitaTransRef !== 'string' || params.length === 0) {
    return null;
  }
  const authParams = params.flatMap((raw) => {
    const p = raw as Record<string, unknown>;
    const text = (key: string) => (typeof p[key] === 'string' ? p[key] : '');
    if (!text('param1')) return [];
    const param2 = text('param2') || null;
    return [
      {
        param1: text('param1'),
        label1: labelOf(text('param1')),
        description1: text('description1') || null,
        param2,
        label2: param2 === null ? null : labelOf(param2),
        description2: text('description2') || null,
      },
    ];
  });
  if (authParams.length === 0) return null;
  return {
    authReference: String(remitaTransRef),
    requestId: typeof answer.requestId === 'string' ? answer.requestId : requestId,
    // Remita's material names no logo address of its own to show (spec §3 remitaLogoUrl).
    logoUrl: null,
    authParams,
  };
}
