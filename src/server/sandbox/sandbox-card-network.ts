import { randomBytes } from 'node:crypto';
import { detectCardBrand } from '../../domain/card-brand';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import type {
  TCardChargeOutcome,
  TCardChargeRequest,
  TCardFailureReason,
  TCardsPort,
  TCardSummary,
} from '../providers/payments';
import {
  cardOfRow,
  claimCharge,
  finishCharge,
  giveBackCharge,
  requeryCharge,
  type TChargeRow,
} from './sandbox-charges';
import { CARD_SCENARIOS, type TCardScenario, type TSandboxCard } from './fixtures';
import { findMintedCardByDigits, findMintedCardByNumber } from './sandbox-people';

/*
 * The sandbox card network: a deterministic issuer for the published test cards (docs/sandbox.md).
 * Each card's scenario decides what a charge does, so a person on /sandbox and a test take the
 * same path: PIN only, PIN then OTP, 3-D Secure, declined, insufficient funds, no answer. A card
 * with a PIN charged without one asks for it (its PIN step), as an issuer does; one checked by
 * 3-D Secure never asks.
 *
 * It keeps no card: where a charge waits for the payer (PIN, OTP, 3-D Secure), what it needs later
 * travels in its provider reference — the scenario, the amount, first 6 and last 4 — which our
 * payment attempt stores and hands back. References come from our own records, never from a
 * payer's request, so the network trusts them as an issuer trusts its own. What it keeps is its
 * record of each charge by our reference (sandbox-charges.ts): a repeated call is answered from
 * it, never charged again, and a requery reads it. Its cards are the published ones and those of
 * people minted since (sandbox-people.ts), found the same way.
 */

/** A published test card, as the fixtures list it. */
export { CARD_SCENARIOS, type TCardScenario, type TSandboxCard };

type TReferencePayload = { r: string; a: number; s: TCardScenario; f6: string; l4: string };

const REFERENCE_PREFIX = 'sbx_ch_';

/*
 * A reference reads `sbx_ch_{scenario}{first6}{last4}_{amount in base 36}_{our reference}`: short
 * enough for a URL path (the 3-D Secure page), and all the network needs to go on.
 */
const REFERENCE = /^sbx_ch_(\d)(\d{6})(\d{4})_([0-9a-z]{1,12})_([\w-]{1,64})$/;

const encodeReference = (payload: TReferencePayload) =>
  `${REFERENCE_PREFIX}${CARD_SCENARIOS.indexOf(payload.s)}${payload.f6}${payload.l4}_${payload.a.toString(36)}_${payload.r}`;

function decodeReference(reference: string): TReferencePayload | null {
  const match = REFERENCE.exec(reference);
  if (!match) return null;
  const [, scenarioIndex = '', f6 = '', l4 = '', amount = '', r = ''] = match;
  const s = CARD_SCENARIOS[Number(scenarioIndex)];
  const a = Number.parseInt(amount, 36);
  if (!s || !Number.isSafeInteger(a)) return null;
  return { r, a, s, f6, l4 };
}

/** A saved card's token: `sbx_tok_{scenario}{first6}{last4}_{random}` (see `succeeded`). */
const TOKEN = /^sbx_tok_(\d)(\d{6})(\d{4})_[\w-]+$/;

const summaryOf = (number: string): TCardSummary | null => {
  const brand = detectCardBrand(number);
  return brand ? { brand, first6: number.slice(0, 6), last4: number.slice(-4) } : null;
};

/** A card as a reference or a token names it: the brand its first 6 digits say. */
const summaryOfDigits = ({ f6, l4 }: { f6: string; l4: string }): TCardSummary | null => {
  const brand = detectCardBrand(f6);
  return brand ? { brand, first6: f6, last4: l4 } : null;
};

/** What a test or /sandbox uses to answer a 3-D Secure challenge the network raised. */
export type TSandboxCardNetwork = TCardsPort & {
  /** The payer's answer on the challenge page: approved or declined. */
  resolveThreeDs(providerReference: string, approved: boolean): Promise<TCardChargeOutcome | null>;
  /**
   * The charge a challenge is for: our reference, the amount and the card (the challenge page
   * shows the last two; the network's notice of the answer names all three).
   */
  describeCharge(
    providerReference: string,
  ): Promise<{ reference: string; amount: number; card: TCardSummary } | null>;
};

export type TSandboxCardNetworkOptions = {
  /** Where the network keeps its record of charges and minted people's cards (the sandbox's tables). */
  db: TDb;
  clock: TClock;
  /** The published test cards. */
  cards: readonly TSandboxCard[];
  /** Where the server's pages are, for the 3-D Secure challenge page's address. */
  publicUrl: string;
  /** How long the 'timeout' card keeps a charge waiting before it fails. */
  timeoutMs: number;
};

const OTP_MESSAGE = 'Enter the OTP sent to the phone number registered with your bank';
const THREE_DS_MESSAGE = 'Complete the 3-D Secure check your bank asks for';

/** The challenge page of a charge 3-D Secure checks. */
const challengeUrl = (publicUrl: string, providerReference: string) =>
  `${publicUrl}/sandbox/3ds/${providerReference}`;

/*
 * A saved card's token names the card's path and digits, as a reference does, and 12 random
 * bytes, so no two saves share one: `sbx_tok_{scenario}{first6}{last4}_{random}`.
 */
const succeeded = (
  scenario: TCardScenario,
  providerReference: string,
  card: TCardSummary,
): TCardChargeOutcome => ({
  kind: 'succeeded',
  providerReference,
  card,
  token: `sbx_tok_${CARD_SCENARIOS.indexOf(scenario)}${card.first6}${card.last4}_${randomBytes(12).toString('base64url')}`,
});

const failed = (
  reason: TCardFailureReason,
  card: TCardSummary | null,
  providerReference: string | null,
): TCardChargeOutcome => ({ kind: 'failed', reason, card, providerReference });

const scenarioOf = (card: Pick<TSandboxCard, 'scenario'>): TCardScenario | null =>
  CARD_SCENARIOS.find((s) => s === card.scenario) ?? null;

/** What the network decides for a new charge, before it records it. */
function decide(
  { reference, amount, card }: TCardChargeRequest,
  known: TSandboxCard | null,
  publicUrl: string,
): TCardChargeOutcome | 'wait' {
  const summary = summaryOf(card.number);
  if (!summary || !known) return failed('declined', summary, null);
  const scenario = scenarioOf(known);
  if (!scenario) return failed('declined', summary, null);
  if (!Number.isSafeInteger(amount) || amount <= 0) return failed('declined', summary, null);
  if (card.expiry !== known.expiry || card.cvv !== known.cvv) {
    return failed('invalid_card', summary, null);
  }
  const providerReference = encodeReference({
    r: reference,
    a: amount,
    s: scenario,
    f6: summary.first6,
    l4: summary.last4,
  });
  switch (scenario) {
    case 'declined':
      return failed('declined', summary, providerReference);
    case 'insufficient_funds':
      return failed('insufficient_funds', summary, providerReference);
    case 'timeout':
      return 'wait';
    case 'three_ds':
      return {
        kind: 'three_ds_required',
        providerReference,
        card: summary,
        challengeUrl: challengeUrl(publicUrl, providerReference),
        displayMessage: THREE_DS_MESSAGE,
      };
    case 'pin_only':
    case 'pin_otp':
      if (card.pin === null) return { kind: 'pin_required', providerReference, card: summary };
      return afterPin(scenario, known, card.pin, providerReference, summary);
  }
}

/** What a card with a PIN does once its PIN is given: paid, its OTP asked, or refused. */
function afterPin(
  scenario: 'pin_only' | 'pin_otp',
  known: Pick<TSandboxCard, 'pin'>,
  pin: string,
  providerReference: string,
  summary: TCardSummary,
): TCardChargeOutcome {
  if (pin !== known.pin) return failed('incorrect_pin', summary, providerReference);
  return scenario === 'pin_only'
    ? succeeded(scenario, providerReference, summary)
    : { kind: 'otp_required', providerReference, card: summary, displayMessage: OTP_MESSAGE };
}

/** A charge's record as an answer, for a repeated call (a saved card's token is not kept). */
function answerOf(row: TChargeRow, publicUrl: string): TCardChargeOutcome {
  const card = cardOfRow(row);
  const providerReference = row.providerReference;
  if (row.status === 'succeeded' && providerReference && card) {
    return { kind: 'succeeded', providerReference, card, token: null };
  }
  if (row.status === 'pending' && providerReference && card && row.awaiting) {
    switch (row.awaiting) {
      case 'pin':
        return { kind: 'pin_required', providerReference, card };
      case 'otp':
        return { kind: 'otp_required', providerReference, card, displayMessage: OTP_MESSAGE };
      case '3ds':
        return {
          kind: 'three_ds_required',
          providerReference,
          card,
          challengeUrl: challengeUrl(publicUrl, providerReference),
          displayMessage: THREE_DS_MESSAGE,
        };
    }
  }
  const reason = (row.status === 'pending' ? 'timeout' : row.reason) as TCardFailureReason;
  return failed(reason, card, providerReference);
}

const cardColumns = (card: TCardSummary | null) =>
  card ? { cardBrand: card.brand, cardFirst6: card.first6, cardLast4: card.last4 } : {};

/** The record of a charge the network decided, as its first call writes it. */
function recordOf(outcome: TCardChargeOutcome) {
  switch (outcome.kind) {
    case 'succeeded':
      return { status: 'succeeded', awaiting: null, reason: null } as const;
    case 'pin_required':
      return { status: 'pending', awaiting: 'pin', reason: null } as const;
    case 'otp_required':
      return { status: 'pending', awaiting: 'otp', reason: null } as const;
    case 'three_ds_required':
      return { status: 'pending', awaiting: '3ds', reason: null } as const;
    case 'failed':
      return { status: 'failed', awaiting: null, reason: outcome.reason } as const;
  }
}

/** How the network finds a card: by its number, by a reference's digits, by a saved token. */
function cardFinder(options: Pick<TSandboxCardNetworkOptions, 'db' | 'cards'>) {
  const byNumber = new Map(options.cards.map((card) => [card.number, card]));
  /** The card with this number, published or minted. */
  const cardWithNumber = async (number: string) =>
    byNumber.get(number) ?? (await findMintedCardByNumber(options.db, number));
  /** The card a waiting charge was made with (for its OTP), published or minted. */
  const cardOf = async (
    payload: Pick<TReferencePayload, 's' | 'f6' | 'l4'>,
  ): Promise<Omit<TSandboxCard, 'number'> | null> =>
    options.cards.find(
      (card) =>
        card.scenario === payload.s &&
        card.number.startsWith(payload.f6) &&
        card.number.endsWith(payload.l4),
    ) ??
    (await findMintedCardByDigits(options.db, {
      scenario: payload.s,
      first6: payload.f6,
      last4: payload.l4,
    }));
  /** The card a saved card's token names. */
  const cardOfToken = async (token: string) => {
    const [, scenarioIndex = '', f6 = '', l4 = ''] = TOKEN.exec(token) ?? [];
    const s = CARD_SCENARIOS[Number(scenarioIndex)];
    return s ? cardOf({ s, f6, l4 }) : null;
  };
  return { cardWithNumber, cardOf, cardOfToken };
}

type TCardFinder = ReturnType<typeof cardFinder>;

/**
 * The payer's answer to a pending charge (its PIN, its OTP, its 3-D Secure check), recorded
 * once: the charge ends, or (a PIN before an OTP) waits for its next step.
 */
async function answerPending(
  options: TSandboxCardNetworkOptions,
  providerReference: string,
  awaiting: 'pin' | 'otp' | '3ds',
  outcome: TCardChargeOutcome,
): Promise<TCardChargeOutcome> {
  const payload = decodeReference(providerReference);
  if (!payload) return failed('declined', null, providerReference);
  const { row, finished } = await finishCharge(
    options.db,
    options.clock,
    payload.r,
    awaiting,
    outcome.kind === 'otp_required'
      ? { status: 'pending', awaiting: 'otp', reason: null }
      : {
          status: outcome.kind === 'succeeded' ? 'succeeded' : 'failed',
          awaiting: null,
          reason: outcome.kind === 'failed' ? outcome.reason : null,
        },
  );
  if (finished) return outcome;
  return row ? answerOf(row, options.publicUrl) : failed('declined', null, providerReference);
}

/** A new charge decided and recorded once by our reference; the 'timeout' card never answers. */
async function chargeCard(
  options: TSandboxCardNetworkOptions,
  finder: TCardFinder,
  request: TCardChargeRequest,
): Promise<TCardChargeOutcome> {
  const decided = decide(
    request,
    await finder.cardWithNumber(request.card.number),
    options.publicUrl,
  );
  const amount = Number.isSafeInteger(request.amount) ? request.amount : 0;
  const summary = summaryOf(request.card.number);
  const { row, first } = await claimCharge(options.db, options.clock, {
    reference: request.reference,
    channel: 'card',
    amount,
    providerReference: decided === 'wait' ? null : decided.providerReference,
    ...(decided === 'wait'
      ? { status: 'pending', awaiting: null, reason: null }
      : recordOf(decided)),
    ...cardColumns(decided === 'wait' ? summary : decided.card),
  });
  if (!first) return answerOf(row, options.publicUrl);
  if (decided !== 'wait') return decided;
  // The 'timeout' card: the issuer never answers, and the network gives up.
  await new Promise((resolve) => setTimeout(resolve, options.timeoutMs));
  await finishCharge(options.db, options.clock, request.reference, null, {
    status: 'failed',
    reason: 'timeout',
  });
  return failed('timeout', summary, null);
}

/** The payer's steps on a charge that waits: its PIN, its OTP, its 3-D Secure check. */
function payerSteps(options: TSandboxCardNetworkOptions, finder: TCardFinder) {
  return {
    async submitCardPin({ providerReference, pin }: { providerReference: string; pin: string }) {
      const payload = decodeReference(providerReference);
      const scenario = payload?.s === 'pin_only' || payload?.s === 'pin_otp' ? payload.s : null;
      const fixture = payload && scenario ? await finder.cardOf(payload) : null;
      const summary = payload && fixture ? summaryOfDigits(payload) : null;
      if (!scenario || !fixture || !summary) return failed('declined', null, providerReference);
      return answerPending(
        options,
        providerReference,
        'pin',
        afterPin(scenario, fixture, pin, providerReference, summary),
      );
    },

    async submitCardOtp({ providerReference, otp }: { providerReference: string; otp: string }) {
      const payload = decodeReference(providerReference);
      const fixture = payload && payload.s === 'pin_otp' ? await finder.cardOf(payload) : null;
      const summary = payload && fixture ? summaryOfDigits(payload) : null;
      if (!fixture || !summary) return failed('declined', null, providerReference);
      return answerPending(
        options,
        providerReference,
        'otp',
        otp === fixture.otp
          ? succeeded('pin_otp', providerReference, summary)
          : failed('incorrect_otp', summary, providerReference),
      );
    },

    async resolveThreeDs(providerReference: string, approved: boolean) {
      const payload = decodeReference(providerReference);
      const fixture = payload && payload.s === 'three_ds' ? await finder.cardOf(payload) : null;
      const summary = payload && fixture ? summaryOfDigits(payload) : null;
      if (!summary) return null;
      return answerPending(
        options,
        providerReference,
        '3ds',
        approved
          ? succeeded('three_ds', providerReference, summary)
          : failed('three_ds_declined', summary, providerReference),
      );
    },
  };
}

/** What the network answers of its charges and cards once made: refunds, requeries, accounts. */
function chargeRecords(options: TSandboxCardNetworkOptions, finder: TCardFinder) {
  return {
    // The sandbox issuer takes back any charge it made, once; a repeat is the same refund.
    async refundCard({ providerReference }: { providerReference: string }) {
      await giveBackCharge(options.db, options.clock, 'card', providerReference);
      return { refunded: true as const };
    },

    async requeryCardCharge(reference: string) {
      const answer = await requeryCharge(options.db, options.clock, 'card', reference);
      if (answer.kind !== 'taken') return answer;
      const { row, ...taken } = answer;
      const card = cardOfRow(row);
      if (!card) throw new Error(`Sandbox charge ${reference} has no card`);
      return { ...taken, card };
    },

    // The issuer knows the account each of its cards draws on; a card it never issued draws on none.
    async isCardOnAccount({
      card,
      institutionCode,
      accountNumber,
    }: Parameters<TCardsPort['isCardOnAccount']>[0]) {
      const fixture =
        'number' in card
          ? await finder.cardWithNumber(card.number)
          : await finder.cardOfToken(card.token);
      return (
        fixture?.account.institutionCode === institutionCode &&
        fixture.account.accountNumber === accountNumber
      );
    },

    async describeCharge(providerReference: string) {
      const payload = decodeReference(providerReference);
      const fixture = payload ? await finder.cardOf(payload) : null;
      const summary = payload && fixture ? summaryOfDigits(payload) : null;
      return payload && summary ? { reference: payload.r, amount: payload.a, card: summary } : null;
    },
  };
}

/** The sandbox card network (above): the port's card calls, and its 3-D Secure page's answers. */
export function sandboxCardNetwork(options: TSandboxCardNetworkOptions): TSandboxCardNetwork {
  const finder = cardFinder(options);
  return {
    provider: 'sandbox',
    chargeCard: (request) => chargeCard(options, finder, request),
    ...payerSteps(options, finder),
    ...chargeRecords(options, finder),
  };
}
