import { detectCardBrand, type TCardBrand } from '../../domain/card-brand';
import { DEFAULT_TRANSFER_BANK_NAME } from '../../domain/constants';

/*
 * The sandbox network's published test data (docs/sandbox.md, GET /api/sandbox/fixtures, the
 * /sandbox page): real Nigerian banks by institution code, the people its BVN registry knows,
 * accounts (each held under one of their BVNs) whose numbers pass the NUBAN check digit for
 * their bank, and Luhn-valid cards. People minted later (sandbox-people.ts) get accounts and
 * cards of the same scenarios. Each account and card names the path it
 * triggers with a stable snake_case scenario word that tests and docs use.
 *
 * Nothing here is a secret: these are the sandbox's own numbers, and no real card or account
 * can be charged through the sandbox.
 */

export const BANK_INTEGRATIONS = [
  'transactionService',
  'altTransactionService',
  'card',
  'nibssAlt',
] as const;
export type TBankIntegration = (typeof BANK_INTEGRATIONS)[number];

export type TSandboxBank = {
  /** CBN code: 3 digits for a deposit-money bank, 5 for a microfinance bank. */
  institutionCode: string;
  name: string;
  integrations: readonly TBankIntegration[];
};

export const SANDBOX_BANKS: readonly TSandboxBank[] = [
  {
    institutionCode: '044',
    name: 'Access Bank',
    integrations: ['transactionService', 'nibssAlt'],
  },
  {
    institutionCode: '058',
    name: 'Guaranty Trust Bank',
    integrations: ['transactionService'],
  },
  { institutionCode: '057', name: 'Zenith Bank', integrations: ['transactionService', 'card'] },
  {
    institutionCode: '011',
    name: 'First Bank of Nigeria',
    integrations: ['altTransactionService'],
  },
  {
    institutionCode: '033',
    name: 'United Bank for Africa',
    integrations: ['transactionService', 'card'],
  },
  { institutionCode: '070', name: 'Fidelity Bank', integrations: ['altTransactionService'] },
  { institutionCode: '035', name: 'Wema Bank', integrations: ['card'] },
  {
    institutionCode: '221',
    name: 'Stanbic IBTC Bank',
    integrations: ['altTransactionService', 'nibssAlt'],
  },
  { institutionCode: '214', name: 'First City Monument Bank', integrations: [] },
  { institutionCode: '232', name: 'Sterling Bank', integrations: ['transactionService', 'card'] },
  {
    institutionCode: '125',
    name: DEFAULT_TRANSFER_BANK_NAME,
    integrations: ['transactionService'],
  },
  { institutionCode: '50211', name: 'Kuda Microfinance Bank', integrations: ['card'] },
  {
    institutionCode: '50515',
    name: 'Moniepoint Microfinance Bank',
    integrations: ['transactionService'],
  },
];

/** The bank that issues one-time transfer accounts (spec §8: 'Rubies MFB'). */
export const SANDBOX_TRANSFER_BANK_CODE = '125';

/**
 * A person the sandbox's BVN registry knows (NIBSS BVN validation): the holder of test accounts,
 * their date of birth and the phone the BVN is registered with, where a code proving the BVN is
 * sent (docs/sandbox.md "Test people"). `signInPhone` is the number they sign in with: the
 * registered one, but for a person whose BVN sits on an old line.
 */
export type TSandboxPerson = {
  /** 11 digits. */
  bvn: string;
  fullName: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  /** E.164: where codes sent to the BVN's phone go (/sandbox/messages in the sandbox). */
  phoneNumber: string;
  /** E.164: the number the person signs in with. */
  signInPhone: string;
  /** One line for a person choosing whom to play on /sandbox. */
  description: string;
};

/**
 * A mobile number the sandbox's SMS provider refuses for good, as a real one refuses a number it
 * cannot reach: a code asked for it answers PHONE_NUMBER_UNREACHABLE (docs/sandbox.md).
 */
export const SANDBOX_UNREACHABLE_PHONE = '+2348099990000';

export const SANDBOX_PEOPLE: readonly TSandboxPerson[] = [
  {
    bvn: '22200000011',
    fullName: 'Adaeze Okafor',
    dateOfBirth: '1990-04-12',
    phoneNumber: '+2348030000001',
    signInPhone: '+2348030000001',
    description: 'The demo payer: her BVN is registered to the phone she signs in with.',
  },
  {
    bvn: '22200000022',
    fullName: 'Aisha Bello',
    dateOfBirth: '1985-09-03',
    phoneNumber: '+2348030000002',
    signInPhone: '+2348030000002',
    description: 'Registered to the phone she signs in with.',
  },
  {
    bvn: '22200000033',
    fullName: 'Chukwuemeka Eze',
    dateOfBirth: '1979-01-25',
    phoneNumber: '+2348030000042',
    signInPhone: '+2348030000003',
    description:
      'Registered to 0803 000 0042, an old line: he signs in with 0803 000 0003, and the code proving his BVN goes to 0803 000 0042.',
  },
  {
    bvn: '22200000044',
    fullName: 'Funmilayo Adebayo',
    dateOfBirth: '1992-07-19',
    phoneNumber: '+2348030000004',
    signInPhone: '+2348030000004',
    description: 'Registered to the phone she signs in with; most test cards are hers.',
  },
  {
    bvn: '22200000055',
    fullName: 'Ibrahim Musa',
    dateOfBirth: '1968-11-30',
    phoneNumber: '+2348030000005',
    signInPhone: '+2348030000005',
    description: 'Registered to the phone he signs in with.',
  },
  {
    bvn: '22200000066',
    fullName: 'Ngozi Nwosu',
    dateOfBirth: '1995-02-14',
    phoneNumber: '+2348030000006',
    signInPhone: '+2348030000006',
    description: 'Registered to the phone she signs in with.',
  },
  {
    bvn: '22200000077',
    fullName: 'Tunde Bakare',
    dateOfBirth: '1988-06-08',
    phoneNumber: '+2348030000007',
    signInPhone: '+2348030000007',
    description: 'Registered to the phone he signs in with.',
  },
];

export const ACCOUNT_SCENARIOS = [
  'links_by_test_transfer',
  'links_by_auth_params',
  'links_by_card',
  'paper_mandate',
  'not_supported',
  'insufficient_funds',
] as const;
export type TAccountScenario = (typeof ACCOUNT_SCENARIOS)[number];

export type TSandboxAccount = {
  accountNumber: string;
  institutionCode: string;
  accountName: string;
  /** The holder's BVN, as the bank holds it: name enquiry answers it (a person of SANDBOX_PEOPLE). */
  bvn: string;
  scenario: TAccountScenario;
  /** Opening balance in kobo; debits and test charges move it. */
  balance: number;
  /** What the bank asks to authorise a mandate on this account (links_by_auth_params). */
  authParams: { cardLast4: string; otp: string } | null;
  /** One line for a person choosing an account on /sandbox. */
  description: string;
};

export const SANDBOX_ACCOUNTS: readonly TSandboxAccount[] = [
  {
    accountNumber: '0123456785',
    institutionCode: '058',
    accountName: 'Adaeze Okafor',
    bvn: '22200000011',
    scenario: 'links_by_test_transfer',
    balance: 50_000_000,
    authParams: null,
    description: 'Links by a small test transfer; direct debits succeed.',
  },
  {
    accountNumber: '0690000018',
    institutionCode: '044',
    accountName: 'Aisha Bello',
    bvn: '22200000022',
    scenario: 'links_by_test_transfer',
    balance: 2_000_000_000,
    authParams: null,
    description: 'Links by a small test transfer; a large balance for big payments.',
  },
  {
    accountNumber: '3010000015',
    institutionCode: '011',
    accountName: 'Chukwuemeka Eze',
    bvn: '22200000033',
    scenario: 'links_by_auth_params',
    balance: 25_000_000,
    authParams: { cardLast4: '4321', otp: '123456' },
    description: 'Links by the alternate service: card last 4 digits 4321, then OTP 123456.',
  },
  {
    accountNumber: '0250000012',
    institutionCode: '035',
    accountName: 'Funmilayo Adebayo',
    bvn: '22200000044',
    scenario: 'links_by_card',
    balance: 10_000_000,
    authParams: null,
    description: 'Links by a card on the account (use any test card that succeeds).',
  },
  {
    accountNumber: '0030000015',
    institutionCode: '221',
    accountName: 'Ibrahim Musa',
    bvn: '22200000055',
    scenario: 'paper_mandate',
    balance: 10_000_000,
    authParams: null,
    description: 'Needs a signed paper mandate form.',
  },
  {
    accountNumber: '1230000016',
    institutionCode: '214',
    accountName: 'Ngozi Nwosu',
    bvn: '22200000066',
    scenario: 'not_supported',
    balance: 10_000_000,
    authParams: null,
    description: 'Its bank supports no integration: shown as Not supported.',
  },
  {
    accountNumber: '2200000011',
    institutionCode: '057',
    accountName: 'Tunde Bakare',
    bvn: '22200000077',
    scenario: 'insufficient_funds',
    balance: 5_000,
    authParams: null,
    description:
      'Links by a card issued on it (5399 8300 0000 0057); holds only NGN 50.00: debits fail.',
  },
  // The demo payer's other accounts under her BVN (README "Try it by hand"): listed as linkable
  // once she is signed in. After the scenarios' first accounts, which tests take.
  {
    accountNumber: '3010000022',
    institutionCode: '011',
    accountName: 'Adaeze Okafor',
    bvn: '22200000011',
    scenario: 'links_by_auth_params',
    balance: 25_000_000,
    authParams: { cardLast4: '4321', otp: '123456' },
    description: 'Of the demo payer: links by card last 4 digits 4321, then OTP 123456.',
  },
  {
    accountNumber: '2200000028',
    institutionCode: '057',
    accountName: 'Adaeze Okafor',
    bvn: '22200000011',
    scenario: 'insufficient_funds',
    balance: 5_000,
    authParams: null,
    description:
      'Of the demo payer: links by a card issued on it (5399 8300 0000 0115); holds only NGN 50.00: debits fail.',
  },
];

/** The paths a test card takes (docs/sandbox.md "Scenarios"), each played by the card network. */
export const CARD_SCENARIOS = [
  'pin_only',
  'pin_otp',
  'three_ds',
  'declined',
  'insufficient_funds',
  'timeout',
] as const;
export type TCardScenario = (typeof CARD_SCENARIOS)[number];

/** A test card as the network knows it: its secrets, its path, the account it draws on. */
export type TSandboxCard = {
  number: string;
  expiry: string;
  cvv: string;
  pin: string;
  otp: string;
  scenario: string;
  /** The bank account the card draws on: the one account it can link. */
  account: { institutionCode: string; accountNumber: string };
};

export type TSandboxCardFixture = TSandboxCard & {
  brand: TCardBrand;
  description: string;
};

/** The test account a card is issued on, by the scenario of that account. */
function issuedOn(scenario: TAccountScenario): TSandboxCard['account'] {
  const account = SANDBOX_ACCOUNTS.find((a) => a.scenario === scenario);
  if (!account) throw new Error(`No sandbox account for ${scenario}`);
  return { institutionCode: account.institutionCode, accountNumber: account.accountNumber };
}

const card = (fixture: Omit<TSandboxCardFixture, 'brand'>): TSandboxCardFixture => {
  const brand = detectCardBrand(fixture.number);
  if (!brand) throw new Error(`Sandbox card ${fixture.number} has no brand`);
  return { ...fixture, brand };
};

/**
 * The test cards, each issued on one test account: it links that account only (docs/accounts.md
 * "Linking by card"). Most are Funmilayo Adebayo's, on the account only a card links; Tunde
 * Bakare's account, which lacks funds for debits, has a card that lacks them too and one that
 * goes through, so it can be linked by card. A scenario's first card is the one tests take.
 */
export const SANDBOX_CARDS: readonly TSandboxCardFixture[] = [
  card({
    number: '4084080000000003',
    expiry: '12/30',
    cvv: '408',
    pin: '1234',
    otp: '123456',
    scenario: 'pin_only',
    account: issuedOn('links_by_card'),
    description: 'Approved after the PIN.',
  }),
  card({
    number: '5399830000000024',
    expiry: '10/31',
    cvv: '539',
    pin: '1234',
    otp: '123456',
    scenario: 'pin_otp',
    account: issuedOn('links_by_card'),
    description: 'Asks for the PIN, then the OTP 123456.',
  }),
  card({
    number: '4000000000003253',
    expiry: '01/32',
    cvv: '325',
    pin: '1234',
    otp: '123456',
    scenario: 'three_ds',
    account: issuedOn('links_by_card'),
    description: 'Opens a 3-D Secure page: Approve or Decline.',
  }),
  card({
    number: '5060990000000016',
    expiry: '06/30',
    cvv: '506',
    pin: '1234',
    otp: '123456',
    scenario: 'declined',
    account: issuedOn('links_by_card'),
    description: 'Declined by the issuer.',
  }),
  card({
    number: '5060990000000024',
    expiry: '06/30',
    cvv: '507',
    pin: '1234',
    otp: '123456',
    scenario: 'insufficient_funds',
    account: issuedOn('insufficient_funds'),
    description: 'Fails for insufficient funds.',
  }),
  card({
    number: '4123450000000068',
    expiry: '09/31',
    cvv: '412',
    pin: '1234',
    otp: '123456',
    scenario: 'timeout',
    account: issuedOn('links_by_card'),
    description: 'The issuer never answers: the charge times out.',
  }),
  card({
    number: '5399830000000057',
    expiry: '04/31',
    cvv: '540',
    pin: '1234',
    otp: '123456',
    scenario: 'pin_only',
    account: issuedOn('insufficient_funds'),
    description: 'Approved after the PIN: a card of Tunde Bakare, to link his account.',
  }),
  card({
    number: '5399830000000115',
    expiry: '04/31',
    cvv: '540',
    pin: '1234',
    otp: '123456',
    scenario: 'pin_only',
    account: { institutionCode: '057', accountNumber: '2200000028' },
    description:
      'Approved after the PIN: a card of the demo payer, to link her Zenith Bank account.',
  }),
];

/** Card readers registered with the sandbox acquirer (docs/terminal.md): serial → tid, mid. */
export type TSandboxReader = { serial: string; tid: string; mid: string };

export const SANDBOX_READERS: readonly TSandboxReader[] = [
  { serial: 'QP5SBX000001', tid: '2SBX0001', mid: '2SBXMERCHANT001' },
  { serial: 'QP5SBX000002', tid: '2SBX0002', mid: '2SBXMERCHANT001' },
];

export const CHIP_CARD_SCENARIOS = [
  'chip_approved',
  'chip_insufficient_funds',
  'chip_declined',
  'magstripe_only',
] as const;
export type TChipCardScenario = (typeof CHIP_CARD_SCENARIOS)[number];

/**
 * A card for the sandbox reader (docs/terminal.md): its PIN (any other answers 55), expiry and
 * the service code its track 2 carries: 2xx or 6xx for a chip, 1xx for the stripe-only card.
 */
export type TSandboxChipCard = {
  number: string;
  expiry: string;
  pin: string;
  serviceCode: string;
  scenario: TChipCardScenario;
  brand: TCardBrand;
  description: string;
};

const chipCard = (fixture: Omit<TSandboxChipCard, 'brand'>): TSandboxChipCard => {
  const brand = detectCardBrand(fixture.number);
  if (!brand) throw new Error(`Sandbox chip card ${fixture.number} has no brand`);
  return { ...fixture, brand };
};

export const SANDBOX_CHIP_CARDS: readonly TSandboxChipCard[] = [
  chipCard({
    number: '5399830000001006',
    expiry: '11/30',
    pin: '1234',
    serviceCode: '221',
    scenario: 'chip_approved',
    description: 'Approved (00) with PIN 1234; any other PIN is declined as incorrect (55).',
  }),
  chipCard({
    number: '4084080000001001',
    expiry: '08/31',
    pin: '1234',
    serviceCode: '201',
    scenario: 'chip_insufficient_funds',
    description: 'Declined for insufficient funds (51).',
  }),
  chipCard({
    number: '5060990000001006',
    expiry: '03/30',
    pin: '1234',
    serviceCode: '601',
    scenario: 'chip_declined',
    description: 'Declined by the issuer (05).',
  }),
  chipCard({
    number: '4123450000001009',
    expiry: '05/31',
    pin: '1234',
    serviceCode: '101',
    scenario: 'magstripe_only',
    description: 'No chip: the reader asks for chip card insertion.',
  }),
];
