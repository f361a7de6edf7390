import { createHash, randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { detectCardBrand, type TCardBrand } from '../../domain/card-brand';
import { nubanCheckDigit } from '../../domain/nuban';
import type { TDb } from '../db/database';
import { sandboxPeople, sandboxPersonAccounts, sandboxPersonCards } from '../db/schema';
import type { TBvnRecord } from '../providers/payments';
import { bankName } from './bank-directory';
import {
  ACCOUNT_SCENARIOS,
  CARD_SCENARIOS,
  SANDBOX_ACCOUNTS,
  SANDBOX_CARDS,
  SANDBOX_PEOPLE,
  type TAccountScenario,
  type TCardScenario,
  type TSandboxAccount,
  type TSandboxCard,
} from './fixtures';

/*
 * The sandbox's people (docs/sandbox.md "Test people"): its BVN registry, and the accounts and
 * cards it holds under each BVN. The fixtures' people are published; more are minted on demand,
 * because one BVN belongs to one payer and tests sharing a server cannot all be Adaeze Okafor.
 * A minted person gets one account per account scenario (the bank, balance and behaviour of
 * that scenario's fixture account) and one card per card scenario (the expiry, CVV, PIN and OTP
 * of that scenario's fixture card). Every sandbox lookup asks here, so a minted account or card
 * is found exactly as a fixture is.
 */

/** The fixture account or card each scenario's minted ones copy: the scenario's first. */
const accountTemplate = (scenario: TAccountScenario): TSandboxAccount => {
  const account = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No sandbox account for ${scenario}`);
  return account;
};

const cardTemplate = (scenario: TCardScenario) => {
  const card = SANDBOX_CARDS.find((c) => c.scenario === scenario);
  if (!card) throw new Error(`No sandbox card for ${scenario}`);
  return card;
};

/** The account scenario of the account a scenario's fixture card is issued on. */
const issuedOnScenario = (scenario: TCardScenario): TAccountScenario => {
  const { account } = cardTemplate(scenario);
  const holder = SANDBOX_ACCOUNTS.find(
    (a) =>
      a.institutionCode === account.institutionCode && a.accountNumber === account.accountNumber,
  );
  if (!holder) throw new Error(`The ${scenario} card is issued on no test account`);
  return holder.scenario;
};

/**
 * The cards a minted person gets: one per card scenario, on the account the fixture card of that
 * scenario is issued on, and, as the fixtures give Tunde Bakare, a card that goes through on the
 * account that lacks funds, so that account links by card too.
 */
const CARD_PLAN: ReadonlyArray<{ scenario: TCardScenario; onScenario: TAccountScenario }> = [
  ...CARD_SCENARIOS.map((scenario) => ({ scenario, onScenario: issuedOnScenario(scenario) })),
  { scenario: 'pin_only', onScenario: 'insufficient_funds' },
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A test account the sandbox bank holds, fixture or minted; null if none has this number. */
export async function findSandboxAccount(
  db: TDb,
  at: { institutionCode: string; accountNumber: string },
): Promise<TSandboxAccount | null> {
  const fixture = SANDBOX_ACCOUNTS.find(
    (a) => a.institutionCode === at.institutionCode && a.accountNumber === at.accountNumber,
  );
  if (fixture) return fixture;
  const [minted] = await db
    .select()
    .from(sandboxPersonAccounts)
    .where(
      and(
        eq(sandboxPersonAccounts.institutionCode, at.institutionCode),
        eq(sandboxPersonAccounts.accountNumber, at.accountNumber),
      ),
    );
  if (!minted) return null;
  return {
    ...accountTemplate(minted.scenario),
    accountNumber: minted.accountNumber,
    accountName: minted.accountName,
    bvn: minted.bvn,
  };
}

/** The registry's entry for a BVN, fixture or minted; null for a BVN it does not know. */
export async function lookupSandboxBvn(db: TDb, bvn: string): Promise<TBvnRecord | null> {
  const fixture = SANDBOX_PEOPLE.find((person) => person.bvn === bvn);
  const [person] = fixture
    ? [fixture]
    : await db.select().from(sandboxPeople).where(eq(sandboxPeople.bvn, bvn));
  if (!person) return null;
  const { fullName, dateOfBirth, phoneNumber } = person;
  return { fullName, dateOfBirth, phoneNumber };
}

/** A minted card as the card network plays it: its scenario's fixture values, its own account. */
const mintedCard = (row: typeof sandboxPersonCards.$inferSelect): Omit<TSandboxCard, 'number'> => {
  const { expiry, cvv, pin, otp } = cardTemplate(row.scenario);
  return {
    expiry,
    cvv,
    pin,
    otp,
    scenario: row.scenario,
    account: { institutionCode: row.institutionCode, accountNumber: row.accountNumber },
  };
};

/** A minted test card, by its number (a charge, a link's issuer check); null if none. */
export async function findMintedCardByNumber(
  db: TDb,
  number: string,
): Promise<TSandboxCard | null> {
  if (!/^\d{12,19}$/.test(number)) return null;
  const [row] = await db
    .select()
    .from(sandboxPersonCards)
    .where(eq(sandboxPersonCards.numberHash, sha256(number)));
  return row ? { ...mintedCard(row), number } : null;
}

/**
 * A minted test card as a charge's reference or a saved card's token names it: its scenario,
 * first 6 and last 4 (unique together). The number is not kept, and what asks this (an OTP, a
 * 3-D Secure answer, a token's account) needs none.
 */
export async function findMintedCardByDigits(
  db: TDb,
  digits: { scenario: TCardScenario; first6: string; last4: string },
): Promise<Omit<TSandboxCard, 'number'> | null> {
  const [row] = await db
    .select()
    .from(sandboxPersonCards)
    .where(
      and(
        eq(sandboxPersonCards.scenario, digits.scenario),
        eq(sandboxPersonCards.first6, digits.first6),
        eq(sandboxPersonCards.last4, digits.last4),
      ),
    );
  return row ? mintedCard(row) : null;
}

/** A minted person, as POST /api/sandbox/people answers it (docs/sandbox.md "Minting a person"). */
export type TMintedPerson = {
  bvn: string;
  fullName: string;
  dateOfBirth: string;
  phoneNumber: string;
  accounts: Array<{
    scenario: TAccountScenario;
    institutionCode: string;
    bankName: string;
    accountNumber: string;
    accountName: string;
  }>;
  cards: Array<{
    scenario: TCardScenario;
    number: string;
    expiry: string;
    cvv: string;
    pin: string;
    otp: string;
    account: { institutionCode: string; accountNumber: string };
  }>;
};

const FIRST_NAMES = [
  'Amaka',
  'Bola',
  'Chinedu',
  'Damilola',
  'Efe',
  'Folake',
  'Gbenga',
  'Halima',
  'Ifeanyi',
  'Kemi',
  'Musa',
  'Nkechi',
  'Obinna',
  'Sade',
  'Tobi',
  'Uche',
  'Yemi',
  'Zainab',
] as const;

const SURNAMES = [
  'Abubakar',
  'Adeyemi',
  'Balogun',
  'Chukwu',
  'Danjuma',
  'Ekwueme',
  'Fashola',
  'Ibekwe',
  'Lawal',
  'Nwankwo',
  'Obi',
  'Ogunleye',
  'Okonkwo',
  'Salami',
  'Umeh',
  'Yusuf',
] as const;

const pick = <T>(items: readonly T[]): T => items[randomInt(0, items.length)]!;

const digits = (count: number) =>
  Array.from({ length: count }, () => String(randomInt(0, 10))).join('');

/** A date of birth of an adult: 1960-01-01 to 2004-12-28 (every month has its 28th). */
const randomDateOfBirth = () =>
  `${randomInt(1960, 2005)}-${String(randomInt(1, 13)).padStart(2, '0')}-${String(randomInt(1, 29)).padStart(2, '0')}`;

/*
 * BVNs 222000000xx are the fixtures'; a minted one is 22 and nine random digits, drawn again
 * when taken. A default phone is 070 and eight random digits, drawn again when another sandbox
 * person has it, so two tests minting at once do not sign in as one payer.
 */
const randomBvn = () => `22${digits(9)}`;
const randomPhone = () => `+23470${digits(8)}`;

/** A Luhn-valid 16-digit number of a brand: a random BIN of its range, random digits, the check. */
function randomCardNumber(brand: TCardBrand): string {
  const bin =
    brand === 'visa'
      ? `4${digits(5)}`
      : brand === 'mastercard'
        ? `5${randomInt(1, 6)}${digits(4)}`
        : String(randomInt(506_099, 506_199));
  const body = `${bin}${digits(9)}`;
  const sum = [...body].reverse().reduce((total, digit, i) => {
    const doubled = i % 2 === 0 ? Number(digit) * 2 : Number(digit);
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const randomNuban = (institutionCode: string) => {
  const serial = digits(9);
  return `${serial}${nubanCheckDigit(institutionCode, serial) ?? '0'}`;
};

const FIXTURE_BVNS = new Set(SANDBOX_PEOPLE.map((person) => person.bvn));
const FIXTURE_CARD_DIGITS = new Set(
  SANDBOX_CARDS.map(
    (card) => `${card.scenario}:${card.number.slice(0, 6)}:${card.number.slice(-4)}`,
  ),
);
const TRIES = 10;

/**
 * Mints a person: a new BVN registered to `phoneNumber` (E.164, normalised by the caller; a
 * fresh one when absent), an account per account scenario and a card per card scenario, in one
 * transaction. Numbers drawn twice (a BVN, an account, a card's digits) are drawn again.
 */
export async function mintSandboxPerson(
  db: TDb,
  input: { fullName?: string | undefined; phoneNumber?: string | undefined } = {},
): Promise<TMintedPerson> {
  const fullName = input.fullName ?? `${pick(FIRST_NAMES)} ${pick(SURNAMES)}`;
  const dateOfBirth = randomDateOfBirth();
  const phoneNumber = input.phoneNumber ?? (await freshPhone(db));
  return db.transaction(async (tx) => {
    let bvn: string | null = null;
    for (let tries = 0; tries < TRIES && !bvn; tries += 1) {
      const drawn = randomBvn();
      if (FIXTURE_BVNS.has(drawn)) continue;
      const [inserted] = await tx
        .insert(sandboxPeople)
        .values({ bvn: drawn, fullName, dateOfBirth, phoneNumber })
        .onConflictDoNothing()
        .returning({ bvn: sandboxPeople.bvn });
      bvn = inserted?.bvn ?? null;
    }
    if (!bvn) throw new Error('No free BVN could be drawn');
    const personBvn = bvn;

    const accounts: TMintedPerson['accounts'] = [];
    for (const scenario of ACCOUNT_SCENARIOS) {
      const { institutionCode } = accountTemplate(scenario);
      const taken = accounts.map((account) => account.accountNumber);
      const accountNumber = await drawAccountNumber(institutionCode, taken, async (number) => {
        const [row] = await tx
          .insert(sandboxPersonAccounts)
          .values({
            institutionCode,
            accountNumber: number,
            bvn: personBvn,
            accountName: fullName,
            scenario,
          })
          .onConflictDoNothing()
          .returning({ accountNumber: sandboxPersonAccounts.accountNumber });
        return Boolean(row);
      });
      accounts.push({
        scenario,
        institutionCode,
        bankName: bankName(institutionCode) ?? institutionCode,
        accountNumber,
        accountName: fullName,
      });
    }

    const cards: TMintedPerson['cards'] = [];
    for (const { scenario, onScenario } of CARD_PLAN) {
      const template = cardTemplate(scenario);
      const onAccount = accounts.find((a) => a.scenario === onScenario);
      if (!onAccount) throw new Error(`No minted account of scenario ${onScenario}`);
      const account = {
        institutionCode: onAccount.institutionCode,
        accountNumber: onAccount.accountNumber,
      };
      let number: string | null = null;
      for (let tries = 0; tries < TRIES && !number; tries += 1) {
        const drawn = randomCardNumber(template.brand);
        const [first6, last4] = [drawn.slice(0, 6), drawn.slice(-4)];
        if (detectCardBrand(drawn) !== template.brand) continue;
        if (FIXTURE_CARD_DIGITS.has(`${scenario}:${first6}:${last4}`)) continue;
        const [row] = await tx
          .insert(sandboxPersonCards)
          .values({
            numberHash: sha256(drawn),
            scenario,
            first6,
            last4,
            bvn: personBvn,
            ...account,
          })
          .onConflictDoNothing()
          .returning({ first6: sandboxPersonCards.first6 });
        if (row) number = drawn;
      }
      if (!number) throw new Error(`No free ${scenario} card number could be drawn`);
      const { expiry, cvv, pin, otp } = template;
      cards.push({ scenario, number, expiry, cvv, pin, otp, account });
    }
    return { bvn: personBvn, fullName, dateOfBirth, phoneNumber, accounts, cards };
  });
}

/** A NUBAN of the bank that no test account has, fixture or minted, claimed by `claim`. */
async function drawAccountNumber(
  institutionCode: string,
  /** The person's accounts drawn before: a new one ends in other last 4 digits than each. */
  personsOthers: readonly string[],
  claim: (accountNumber: string) => Promise<boolean>,
): Promise<string> {
  // The page lists a payer's accounts masked to their last 4 digits (****1234): two of one
  // person's ending alike would read as one account to the payer, and to a test finding it.
  const lastFours = new Set(personsOthers.map((number) => number.slice(-4)));
  for (let tries = 0; tries < TRIES; tries += 1) {
    const drawn = randomNuban(institutionCode);
    if (lastFours.has(drawn.slice(-4))) continue;
    const fixture = SANDBOX_ACCOUNTS.some(
      (a) => a.institutionCode === institutionCode && a.accountNumber === drawn,
    );
    if (!fixture && (await claim(drawn))) return drawn;
  }
  throw new Error(`No free account number at ${institutionCode} could be drawn`);
}

async function freshPhone(db: TDb): Promise<string> {
  const fixturePhones = new Set(SANDBOX_PEOPLE.flatMap((p) => [p.phoneNumber, p.signInPhone]));
  for (let tries = 0; tries < TRIES; tries += 1) {
    const drawn = randomPhone();
    if (fixturePhones.has(drawn)) continue;
    const [taken] = await db
      .select({ bvn: sandboxPeople.bvn })
      .from(sandboxPeople)
      .where(eq(sandboxPeople.phoneNumber, drawn))
      .limit(1);
    if (!taken) return drawn;
  }
  throw new Error('No free phone number could be drawn');
}

/** The test accounts the registry holds under a BVN, fixture or minted; none for an unknown one. */
export async function accountsOfSandboxBvn(
  db: TDb,
  bvn: string,
): Promise<Array<{ institutionCode: string; accountNumber: string }>> {
  const fixtures = SANDBOX_ACCOUNTS.filter((a) => a.bvn === bvn);
  const minted = await db
    .select({
      institutionCode: sandboxPersonAccounts.institutionCode,
      accountNumber: sandboxPersonAccounts.accountNumber,
    })
    .from(sandboxPersonAccounts)
    .where(eq(sandboxPersonAccounts.bvn, bvn));
  return [
    ...fixtures.map(({ institutionCode, accountNumber }) => ({ institutionCode, accountNumber })),
    ...minted,
  ];
}
