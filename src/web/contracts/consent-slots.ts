/**
 * The consent page's slots: what each screen another feature owns is given, and what the page
 * hands the screens it composes. Features do not import each other (eslint.config.js), so the
 * page and the screen it shows meet here, on one declaration each, whichever side of a lazy
 * boundary they load on. Types only: the linter refuses anything else in this file, so importing
 * it never pulls code into a chunk.
 */
import type { ComponentType, ReactNode } from 'react';
import type { TChipReaderTransport } from '../../domain/chip-reader-transports';
import type { TConsentStep } from '../../domain/consent-steps';
import type { TEmbedMessage } from '../../domain/embed-messages';
import type { TPaymentReport } from '../../domain/embed-payment-report';
import type { TPageParams } from '../../domain/page-params';
import type { TTerminalPaymentNews } from '../../domain/pushed-terminal';
import type { TSignedGrant } from '../../domain/schemas/auth';
import type { TConsent, TPayment } from '../../domain/schemas/consent';
import type { TGrantRequest } from '../../domain/schemas/consent-api';

/** What the auth prompt screen is given; the auth feature owns the screen. */
export type TAuthPromptScreenProps = {
  consent: TConsent;
  /** The product that authenticates the payer (PRODUCT_NAME on the server). */
  productName: string;
  /** The page's parameters the sign-in names (spec §2 query parameters). */
  params: Pick<TPageParams, 'clientId' | 'authAppId'>;
  /** Shown after the immediate payment was paid (the prompts after a payment): said paid. */
  paymentMade?: boolean;
  onAuthenticated(): void;
  /**
   * Asked for by the payer where the consent does not need it: back to the consent
   * without signing in ('Continue without signing in'); the prompt takes the focus when shown.
   */
  onBack?(): void;
};

/** What the Immediate Payment screen is given; the payment feature owns the screen. */
export type TPayNowScreenProps = {
  consent: TConsent;
  payment: TPayment;
  clientId: string;
  signedIn: boolean;
  /**
   * A signed-in payer's passkey signs the grant (the auth feature's signGrant). It rejects with
   * an error named as WebAuthn names it when no passkey on this device approved (isApprovalNotGiven).
   */
  signGrant(consentId: string, payload: TGrantRequest): Promise<TSignedGrant>;
  /** The consent is granted: the page reads it again and shows Consent Granted. */
  onGranted(): void;
  /** The grant failed: the embedding parent is told (oya-money-consent-failed). */
  onFailed(error: string): void;
  /** Where the payment stands changed: the embedding parent is told (oya-money-payment-status). */
  onPaymentStatus?(report: TPaymentReport): void;
  /**
   * In the consent flow: the whole grant body once the payment is paid (the flow's other steps'
   * choices with it), and the flow's step header instead of the screen's. A payment alone, its
   * payer not signed in, is given one too: its other way is the sign-in to a saved account.
   */
  flow?: {
    grantRequest(paidBy: { type: 'transfer' | 'card'; paymentId: string }): TGrantRequest;
    /** Other ways to pay shown above the methods (the saved accounts, spec §2 'OneTap'). */
    otherWays: ReactNode;
    /**
     * What is said below the methods, which come first: why a way is missing here (no passkey in
     * an app's browser).
     */
    afterWays?: ReactNode;
    /** A saved account is chosen ('OneTap'): the flow's grant debits it, not this screen. */
    savedAccountChosen: boolean;
    /** Inside a step of the flow, whose header replaces the screen's; alone, the screen's own. */
    inSteps: boolean;
  };
  /** The prompts after a payment (spec §2, §4): screens of the auth and linking features. */
  prompts: TPayNowPrompts;
};

/** The screens the prompts after a payment open, owned by the auth, linking and terminal features. */
export type TPayNowPrompts = {
  /** 'Save Your Card' on the card a signed-in payer just paid with. */
  SaveCardPrompt: ComponentType<TSaveCardPromptProps>;
  /** The auth prompt, for 'Sign In to Save Account' and 'Sign In & Save Card'. */
  SignIn: ComponentType<{ onAuthenticated(): void }>;
  /** The account-linking panel: for the account a transfer came from, or for a card. */
  LinkAccountPanel: ComponentType<TLinkAccountPanelProps>;
  /** 'Verify your BVN', when linking the account that paid asks for it first (linking's). */
  BvnVerification: ComponentType<TBvnVerificationProps>;
  /** The Chip Card Terminal modal (spec §2), the terminal feature's: a payment method's screen. */
  ChipTerminal: ComponentType<TChipTerminalProps>;
  /** The same modal where the terminal is the merchant's, which the server pushes to. */
  PushedTerminal: ComponentType<TPushedTerminalProps>;
};

/** What the Chip Card Terminal modal is given; the terminal feature owns it. */
export type TChipTerminalProps = {
  paymentId: string;
  /** Kobo. */
  amount: number;
  payer: { signedIn: boolean; consentId: string; clientId: string };
  /** The readers this page can reach (chip-reader-transports.ts). */
  transports: readonly TChipReaderTransport[];
  onClose(): void;
};

/**
 * What the Chip Card Terminal modal is given where the chip terminal is the merchant's certified
 * terminal the server pushes the payment to (docs/providers/paystack-terminal.md); the terminal
 * feature owns it.
 */
export type TPushedTerminalProps = {
  paymentId: string;
  /** Kobo. */
  amount: number;
  payer: { signedIn: boolean; consentId: string; clientId: string };
  /**
   * What the payment's stream said last while the modal was open, numbered
   * (pay-now-server-news.ts).
   */
  news: { seq: number; news: TTerminalPaymentNews } | null;
  onClose(): void;
};

/** What the account-linking panel is given when a prompt opens it; linking owns it. */
export type TLinkAccountPanelProps = {
  /** The account a transfer came from: the panel starts with it. */
  origin: { accountNumber: string; institutionCode: string } | null;
  /** A card paid with: linked by the card flow. */
  forceCardFlow: boolean;
  onClose(): void;
};

/** What the BVN form on its own is given; linking owns it. */
export type TBvnVerificationProps = {
  /** Why the BVN is asked here, in a sentence. */
  reason?: string;
  onCancel?: () => void;
  onVerified?: () => void;
};

/** What 'Save Your Card' is given; linking owns it. */
export type TSaveCardPromptProps = {
  paymentId: string;
  /** Saved (the account it went on, now among the payer's accounts) or skipped (null). */
  onDone(saved: { accountId: string; accountNumber: string } | null): void;
};

/** What the repayment accounts of the Future Payments step are given; linking owns them. */
export type TRepaymentAccountsProps = {
  /** The consent whose future payments the accounts pay: a mandate linked here allows them. */
  consentId: string;
  /** The account ids chosen, in order. */
  selectedIds: readonly string[];
  onToggle(accountId: string): void;
  /** An account the payer just linked here: the flow chooses it for them (spec §4). */
  onLinked(accountId: string): void;
  /** The linking panel opened or closed (the header reads 'Link Account' while it is open). */
  onLinkingChange?(open: boolean): void;
};

/** What the saved accounts of the Immediate Payment step are given ('OneTap'); linking owns them. */
export type TSavedAccountsProps = {
  selectedId: string | null;
  onChoose(account: { accountId: string; accountNumber: string }): void;
};

/** What the Form step is given; the form feature owns it. */
export type TFormStepProps = {
  consent: TConsent;
  clientId: string;
  /** Public mode (spec §2): the form and its saved answers, nothing can change. */
  readOnly: boolean;
  /** 'Next Step', once every section is complete and saved. */
  onComplete(): void;
  /** False once the flow answers the step itself ('Consent' / 'Decline' below it). */
  showNextStep?: boolean;
};

/** What the grant's offer of a passkey is given; the auth feature owns it. */
export type TAddPasskeyProps = {
  /**
   * Created (`signsFrom`: null when it signs at once, else from when it may approve payments and
   * mandates), or not ('Not now').
   */
  onDone(created: { signsFrom: string | null } | null): void;
};

/**
 * Screens other features own, plugged in by the app: features do not import each other, and a
 * screen may load only when the page first needs it.
 */
export type TConsentScreens = {
  AuthPrompt: ComponentType<TAuthPromptScreenProps>;
  PayNow: ComponentType<TPayNowScreenProps>;
  /** The signed-in payer's repayment accounts, and the account-linking panel. */
  RepaymentAccounts: ComponentType<TRepaymentAccountsProps>;
  SavedAccounts: ComponentType<TSavedAccountsProps>;
  SaveCardPrompt: ComponentType<TSaveCardPromptProps>;
  /** The account-linking panel on its own, for the prompts after a payment. */
  LinkAccountPanel: ComponentType<TLinkAccountPanelProps>;
  /** The BVN form on its own, for the prompts after a payment. */
  BvnVerification: ComponentType<TBvnVerificationProps>;
  /** The Form step (the form feature's). */
  FormStep: ComponentType<TFormStepProps>;
  /** The Chip Card Terminal modal (the terminal feature's), loaded when the payer picks it. */
  ChipTerminal: ComponentType<TChipTerminalProps>;
  /** The modal for the merchant's pushed terminal (the terminal feature's), loaded likewise. */
  PushedTerminal: ComponentType<TPushedTerminalProps>;
  signGrant: TPayNowScreenProps['signGrant'];
  /** A passkey created right where the grant needs one (the auth feature's). */
  AddPasskey: ComponentType<TAddPasskeyProps>;
};

/** Posts to the embedding parent (the app's embed bridge): true when the message went. */
export type TPostToParent = (message: TEmbedMessage, allowedOrigins?: readonly string[]) => boolean;

/** What the screens tell the embedding parent as the payer goes (our messages, not the spec's). */
export type TEmbedReports = {
  /** The flow's open step: told when it changes, the first one shown included. */
  step(step: TConsentStep): void;
  /** Where the immediate payment stands: each attempt's status told once. */
  payment(report: TPaymentReport): void;
  /** The payer declined the consent: told once. */
  declined(): void;
};
