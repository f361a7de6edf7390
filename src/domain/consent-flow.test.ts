import { describe, expect, it } from 'vitest';
import {
  APPROVAL_NOT_GIVEN_MESSAGE,
  approvedOriginAccount,
  asksOnlyConsent,
  canPayWithoutSignature,
  closesConsentError,
  consentFlowButton,
  consentFlowGrantRequest,
  consentFlowReducer,
  initialConsentFlow,
  showsConsentOrDecline,
  showsDecline,
  type TConsentFlowAction,
  type TConsentFlowState,
} from './consent-flow';
import { payerBankOf } from './after-payment';
import { maskOrigin } from './origin-privacy';
import type { TConsent, TPaymentOrigin } from './schemas/consent';
import type { TUserAccount } from './schemas/user-account';
import { aConsent, aPayment, anAccount, anImmediatePayment } from './test-support/fixtures';

const everything = aConsent({
  dataSharing: { bvnData: true, ninData: false, userImages: false, bankAccounts: true },
  formId: null,
  payments: [anImmediatePayment({ paymentId: 'pay_now' }), aPayment({ paymentId: 'pay_later' })],
});

const run = (state: TConsentFlowState, ...actions: TConsentFlowAction[]) =>
  actions.reduce(consentFlowReducer, state);

describe('the consent flow (spec §2 Main consent flow, §4)', () => {
  it('opens on the first step, in the spec order, and moves on as each is confirmed', () => {
    const start = initialConsentFlow(everything);
    expect(start.steps).toEqual(['data_sharing', 'future_payments', 'immediate_payment']);
    expect(start.current).toBe('data_sharing');
    expect(consentFlowButton(start)).toMatchObject({ action: 'confirm', disabled: false });
    const future = run(start, { type: 'step_confirmed' });
    expect(future).toMatchObject({ current: 'future_payments', completed: ['data_sharing'] });
    // The schedule first: its own Confirm shows the accounts; no flow button meanwhile.
    expect(consentFlowButton(future)).toBeNull();
    const accounts = run(future, { type: 'schedule_confirmed' });
    expect(consentFlowButton(accounts)).toMatchObject({
      action: 'confirm',
      button: { label: 'Confirm' },
      disabled: true,
    });
    // No repayment account: confirming does nothing.
    expect(run(accounts, { type: 'step_confirmed' }).current).toBe('future_payments');
    const chosen = run(accounts, { type: 'future_account_toggled', accountId: 'acc_1' });
    expect(consentFlowButton(chosen)?.disabled).toBe(false);
    const immediate = run(chosen, { type: 'step_confirmed' });
    expect(immediate.current).toBe('immediate_payment');
    // No way of paying chosen yet: the methods lead on, no button.
    expect(consentFlowButton(immediate)).toBeNull();
    const onetap = run(immediate, {
      type: 'immediate_account_chosen',
      accountId: 'acc_1',
      accountNumber: '0123456785',
    });
    expect(consentFlowButton(onetap)).toEqual({
      action: 'grant',
      button: { variant: 'onetap', label: 'OneTap', maskedAccount: '****6785' },
      disabled: false,
    });
  });

  it("while the linking panel stands in the repayment accounts' place, the step shows no 'Confirm' and no 'back' of its own", () => {
    const future = run(initialConsentFlow(everything), { type: 'step_confirmed' });
    // The schedule has no panel to open.
    expect(run(future, { type: 'linking_toggled', open: true })).toBe(future);
    const accounts = run(future, { type: 'schedule_confirmed' });
    const linking = run(accounts, { type: 'linking_toggled', open: true });
    expect(linking.futureView).toBe('linking');
    expect(consentFlowButton(linking)).toBeNull();
    // The panel closed: the accounts with their 'Confirm' again.
    const closed = run(linking, { type: 'linking_toggled', open: false });
    expect(closed.futureView).toBe('accounts');
    expect(consentFlowButton(closed)).toMatchObject({ button: { label: 'Confirm' } });
  });

  it('reopens earlier steps but never a later one not reached', () => {
    const start = initialConsentFlow(everything);
    expect(run(start, { type: 'step_opened', step: 'immediate_payment' }).current).toBe(
      'data_sharing',
    );
    const later = run(
      start,
      { type: 'step_confirmed' },
      { type: 'step_opened', step: 'data_sharing' },
    );
    expect(later.current).toBe('data_sharing');
    expect(later.completed).toEqual(['data_sharing']);
    // Done steps before it: the next step may be opened again.
    expect(run(later, { type: 'step_opened', step: 'future_payments' }).current).toBe(
      'future_payments',
    );
  });

  it('hides the button while the grant is signed and processed, and keeps choices after a failure', () => {
    const ready = run(
      initialConsentFlow(
        aConsent({
          dataSharing: { bvnData: true, ninData: false, userImages: false, bankAccounts: false },
          payments: [],
        }),
      ),
      { type: 'step_confirmed' },
    );
    expect(consentFlowButton(ready)).toMatchObject({
      action: 'grant',
      button: { label: 'Consent' },
    });
    const signing = run(ready, { type: 'grant_requested' });
    expect(signing.grant).toBe('signing');
    expect(consentFlowButton(signing)).toBeNull();
    expect(run(signing, { type: 'grant_requested' })).toBe(signing);
    const failed = run(
      signing,
      { type: 'grant_signed' },
      { type: 'grant_failed', message: 'Some payments failed. Please try again.' },
    );
    expect(failed).toMatchObject({
      grant: 'failed',
      error: 'Some payments failed. Please try again.',
    });
    expect(run(failed, { type: 'grant_retry' })).toMatchObject({
      grant: 'idle',
      error: null,
      current: 'data_sharing',
    });
  });

  it('starts past an immediate payment already paid', () => {
    const paid = aConsent({
      payments: [
        anImmediatePayment({ status: 'executed', executedAt: '2026-11-23T10:00:00.000Z' }),
      ],
    });
    const state = initialConsentFlow(paid);
    expect(state.completed).toEqual(['immediate_payment']);
    expect(consentFlowButton(state)).toMatchObject({ action: 'grant', disabled: false });
  });

  it('builds the grant body of what was chosen (spec §7)', () => {
    const state = run(
      initialConsentFlow(everything),
      { type: 'future_account_toggled', accountId: 'acc_2' },
      { type: 'future_account_toggled', accountId: 'acc_1' },
      { type: 'immediate_account_chosen', accountId: 'acc_1', accountNumber: '0123456785' },
    );
    expect(consentFlowGrantRequest(everything, state, null)).toEqual({
      originalRequestId: null,
      consentData: { consentId: everything.consentId },
      userAuthenticated: true,
      attestDiscoveryId: everything.attestDiscoveryId,
      dataSharing: { granted: true, dataTypes: ['bvnData', 'bankAccounts'] },
      futurePayments: {
        granted: true,
        selectedAccounts: ['acc_2', 'acc_1'],
        paymentMethods: [
          { type: 'account', accountId: 'acc_2' },
          { type: 'account', accountId: 'acc_1' },
        ],
      },
      immediatePayments: {
        granted: true,
        selectedAccounts: ['acc_1'],
        paymentMethods: [{ type: 'account', accountId: 'acc_1' }],
      },
    });
    const byCard = consentFlowGrantRequest(
      everything,
      { ...state, immediateAccount: null },
      { type: 'card', paymentId: 'pay_now' },
    );
    expect(byCard.immediatePayments).toEqual({
      granted: true,
      selectedAccounts: [],
      paymentMethods: [{ type: 'card', paymentId: 'pay_now' }],
    });
  });
});

describe('asksOnlyConsent (spec §4: Consent / Decline)', () => {
  const none = { bvnData: false, ninData: false, userImages: false, bankAccounts: false };
  it('is true for a consent asking for no payment and no data, false otherwise', () => {
    const formOnly = aConsent({ dataSharing: none, formId: 'frm_1', payments: [] });
    expect(asksOnlyConsent(formOnly)).toBe(true);
    expect(asksOnlyConsent({ ...formOnly, payments: [anImmediatePayment()] })).toBe(false);
    expect(asksOnlyConsent({ ...formOnly, dataSharing: { ...none, bvnData: true } })).toBe(false);
  });

  it("a form alone: 'Decline' from the start; once its 'Next Step' is done, 'Consent' beside it", () => {
    const start = initialConsentFlow(
      aConsent({ dataSharing: none, formId: 'frm_1', payments: [] }),
    );
    // Nothing filled in yet: the payer can already say no.
    expect(showsDecline(start)).toBe(true);
    expect(showsConsentOrDecline(start)).toBe(false);
    const done = run(start, { type: 'step_confirmed' });
    expect(showsDecline(done)).toBe(true);
    expect(showsConsentOrDecline(done)).toBe(true);
    expect(consentFlowButton(done)).toBeNull();
    // While the grant is signed, neither shows.
    const signing = run(done, { type: 'grant_requested' });
    expect(showsDecline(signing)).toBe(false);
    expect(showsConsentOrDecline(signing)).toBe(false);
  });

  it("data sharing alone: 'Confirm' on the step, then 'Consent', without Decline", () => {
    const start = initialConsentFlow(
      aConsent({ dataSharing: { ...none, bvnData: true }, formId: null, payments: [] }),
    );
    expect(showsDecline(start)).toBe(false);
    expect(consentFlowButton(start)).toEqual({
      action: 'confirm',
      button: { variant: 'confirm', label: 'Confirm' },
      disabled: false,
    });
    const confirmed = run(start, { type: 'step_confirmed' });
    expect(confirmed).toMatchObject({ current: 'data_sharing', completed: ['data_sharing'] });
    expect(showsConsentOrDecline(confirmed)).toBe(false);
    expect(consentFlowButton(confirmed)).toEqual({
      action: 'grant',
      button: { variant: 'consent', label: 'Consent' },
      disabled: false,
    });
    // Reopening the step is confirming it again: it stays done, the grant stays next.
    const reopened = run(confirmed, { type: 'step_opened', step: 'data_sharing' });
    expect(consentFlowButton(reopened)?.action).toBe('grant');
  });
});

describe('a payment from an account linked and approved (spec §4: the page jumps to the final step)', () => {
  const origin: TPaymentOrigin = {
    paymentMethod: 'bank_transfer',
    accountNumber: '0123456785',
    institutionCode: '000013',
    bankName: 'GTBank',
  };
  const paidFrom = (over: Partial<TPaymentOrigin> = {}) =>
    aConsent({
      dataSharing: { bvnData: false, ninData: false, userImages: false, bankAccounts: false },
      formId: null,
      payments: [
        anImmediatePayment({ status: 'executed', origin: { ...origin, ...over } }),
        aPayment({ paymentId: 'pay_later' }),
      ],
    });
  // The account paid from, as the payment's read names it to the payer who paid.
  const approvedOf = (consent: TConsent, accounts: TUserAccount[]) =>
    approvedOriginAccount(consent, accounts, payerBankOf(consent.payments[0]?.origin));
  const approved = anAccount({
    bankId: 'acc_gt',
    accountNumber: '0123456785',
    institutionCode: '000013',
    linkStatus: 'approved',
  });

  it('names the approved account the payment came from, by number and bank', () => {
    expect(approvedOf(paidFrom(), [anAccount(), approved])).toEqual({
      accountId: 'acc_gt',
    });
    // Same number at another bank, a link not approved, a card, an unknown sender: none.
    expect(approvedOf(paidFrom({ institutionCode: '000014' }), [approved])).toBeNull();
    expect(approvedOf(paidFrom(), [{ ...approved, linkStatus: null }])).toBeNull();
    expect(
      approvedOf(paidFrom({ paymentMethod: 'card', bankName: undefined }), [approved]),
    ).toBeNull();
    expect(approvedOf(paidFrom({ accountNumber: undefined }), [approved])).toBeNull();
    // Not paid yet: nothing to jump over.
    const pending = aConsent({ payments: [anImmediatePayment({ origin })] });
    expect(approvedOf(pending, [approved])).toBeNull();
  });

  it('names it from a masked account (a payer who paid before signing in): the bank and last four, one account alone', () => {
    const masked = paidFrom(maskOrigin(origin));
    expect(masked.payments[0]?.origin?.accountNumber).toBe('****6785');
    expect(approvedOf(masked, [anAccount(), approved])).toEqual({ accountId: 'acc_gt' });
    // Another approved account at the bank ending alike: which one paid is not known.
    const twin = { ...approved, bankId: 'acc_twin', accountNumber: '9999996785' };
    expect(approvedOf(masked, [approved, twin])).toBeNull();
  });

  it('repays from that account and opens the final step, its Consent button ready', () => {
    const start = initialConsentFlow(paidFrom());
    expect(start.current).toBe('future_payments');
    const jumped = run(start, { type: 'paid_from_approved_account', accountId: 'acc_gt' });
    expect(jumped).toMatchObject({
      current: 'immediate_payment',
      futureAccountIds: ['acc_gt'],
      completed: ['immediate_payment', 'future_payments'],
    });
    expect(consentFlowButton(jumped)).toEqual({
      action: 'grant',
      button: { variant: 'consent', label: 'Consent' },
      disabled: false,
    });
    expect(consentFlowGrantRequest(paidFrom(), jumped, null).futurePayments).toEqual({
      granted: true,
      selectedAccounts: ['acc_gt'],
      paymentMethods: [{ type: 'account', accountId: 'acc_gt' }],
    });
  });

  it('keeps repayment accounts already chosen, and still asks for the data to share first', () => {
    const withData = {
      ...paidFrom(),
      dataSharing: { bvnData: true, ninData: false, userImages: false, bankAccounts: false },
    };
    const chosen = {
      ...initialConsentFlow(withData),
      futureAccountIds: ['acc_other'],
    };
    const jumped = run(chosen, { type: 'paid_from_approved_account', accountId: 'acc_gt' });
    expect(jumped.futureAccountIds).toEqual(['acc_other']);
    expect(jumped.current).toBe('data_sharing');
    expect(run(jumped, { type: 'step_confirmed' }).current).toBe('immediate_payment');
  });
});

describe('a grant the payer cannot sign yet', () => {
  const payOnly = aConsent({ payments: [anImmediatePayment({ paymentId: 'pay_now' })] });
  const oneTap = run(
    initialConsentFlow(payOnly),
    { type: 'immediate_account_chosen', accountId: 'bnk_1', accountNumber: '0123456789' },
    { type: 'grant_requested' },
  );

  it('keeps why: no passkey, so the modal offers to create one; a new try forgets it', () => {
    const failed = run(oneTap, {
      type: 'grant_failed',
      message: 'Add a passkey to your account to give your biometric approval',
      signatureBlock: 'no_passkey',
    });
    expect(failed).toMatchObject({ grant: 'failed', signatureBlock: 'no_passkey' });
    expect(canPayWithoutSignature(failed)).toBe(false);
    expect(run(failed, { type: 'grant_retry' }).signatureBlock).toBeNull();
    expect(run(failed, { type: 'grant_retry' }, { type: 'grant_requested' })).toMatchObject({
      grant: 'signing',
      signatureBlock: null,
    });
  });

  it('a passkey that must wait: pays the immediate payment by transfer or card instead', () => {
    const waiting = run(oneTap, {
      type: 'grant_failed',
      message: 'Added without approval, this passkey can approve payments and mandates from …',
      signatureBlock: 'passkey_waiting',
    });
    expect(canPayWithoutSignature(waiting)).toBe(true);
    const instead = run(waiting, { type: 'pay_without_signature' });
    expect(instead).toMatchObject({
      grant: 'idle',
      error: null,
      signatureBlock: null,
      immediateAccount: null,
      current: 'immediate_payment',
    });
    // The OneTap button is gone: the payment's own methods pay it, and their grant signs no money.
    expect(consentFlowButton(instead)).toBeNull();
  });

  it('a passkey created where none on this device approved: signs at once, or says until when', () => {
    const notHere = run(oneTap, {
      type: 'grant_failed',
      message: APPROVAL_NOT_GIVEN_MESSAGE,
      signatureBlock: 'not_on_device',
    });
    expect(notHere).toMatchObject({ grant: 'failed', signatureBlock: 'not_on_device' });
    const now = new Date('2026-11-25T10:00:00Z');
    // Approved by another passkey (or the first): the page asks it to sign now.
    expect(run(notHere, { type: 'passkey_created', signsFrom: null, now })).toMatchObject({
      grant: 'idle',
      error: null,
      signatureBlock: null,
    });
    // Kept without approval: the debit is not asked of it; the modal says until when and offers
    // the transfer or card that needs no signature.
    const waiting = run(notHere, {
      type: 'passkey_created',
      signsFrom: '2026-11-26T10:00:00.000Z',
      now,
    });
    expect(waiting).toMatchObject({ grant: 'failed', signatureBlock: 'passkey_waiting' });
    expect(waiting.error).toBe(
      'Added without approval, this passkey can approve payments and mandates from 26 Nov 2026, 11:00 am.',
    );
    expect(canPayWithoutSignature(waiting)).toBe(true);
    // A grant that signs no money (the payment already paid) is signed by the waiting passkey.
    const paid = run(
      initialConsentFlow(aConsent({ payments: [anImmediatePayment({ status: 'executed' })] })),
      { type: 'grant_requested' },
      {
        type: 'grant_failed',
        message: APPROVAL_NOT_GIVEN_MESSAGE,
        signatureBlock: 'not_on_device',
      },
      { type: 'passkey_created', signsFrom: '2026-11-26T10:00:00.000Z', now },
    );
    expect(paid.grant).toBe('idle');
    // Only where the modal offered it.
    expect(run(oneTap, { type: 'passkey_created', signsFrom: null, now })).toBe(oneTap);
  });

  it('offers nothing without a signature where the grant binds future payments or no debit was chosen', () => {
    const withFuture = run(
      initialConsentFlow(everything),
      { type: 'grant_requested' },
      { type: 'grant_failed', message: 'wait', signatureBlock: 'passkey_waiting' },
    );
    expect(canPayWithoutSignature(withFuture)).toBe(false);
    expect(run(withFuture, { type: 'pay_without_signature' })).toBe(withFuture);
    const noDebit = run(
      initialConsentFlow(payOnly),
      { type: 'grant_requested' },
      { type: 'grant_failed', message: 'wait', signatureBlock: 'passkey_waiting' },
    );
    expect(canPayWithoutSignature(noDebit)).toBe(false);
  });

  it('offers no transfer or card where the payment does not grant the consent by itself', () => {
    // Data to share too: paid by card, the grant would still need the passkey that must wait.
    const withData = aConsent({
      payments: [anImmediatePayment({ paymentId: 'pay_now' })],
      dataSharing: { bvnData: true },
    });
    const waiting = run(
      initialConsentFlow(withData),
      { type: 'immediate_account_chosen', accountId: 'bnk_1', accountNumber: '0123456789' },
      { type: 'grant_requested' },
      { type: 'grant_failed', message: 'wait', signatureBlock: 'passkey_waiting' },
    );
    expect(canPayWithoutSignature(waiting)).toBe(false);
    expect(closesConsentError(waiting)).toBe(true);
  });

  it('asks a passkey that must wait for no signature of any grant the server would refuse', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const dataOnly = aConsent({ payments: [], dataSharing: { bvnData: true } });
    const created = run(
      initialConsentFlow(dataOnly),
      { type: 'step_confirmed' },
      { type: 'grant_requested' },
      { type: 'grant_failed', message: 'none', signatureBlock: 'no_passkey' },
      { type: 'passkey_created', signsFrom: '2026-11-26T10:00:00.000Z', now },
    );
    // Data sharing signs no money, but every grant needs a trusted passkey: the modal says when.
    expect(created).toMatchObject({ grant: 'failed', signatureBlock: 'passkey_waiting' });
    expect(created.error).toBe(
      'Added without approval, this passkey can approve payments and mandates from 26 Nov 2026, 11:00 am.',
    );
  });

  it("offers 'Close' on a passkey that must wait, which a new try cannot change, and nowhere else", () => {
    const withFuture = run(
      initialConsentFlow(everything),
      { type: 'grant_requested' },
      { type: 'grant_failed', message: 'wait', signatureBlock: 'passkey_waiting' },
    );
    expect(closesConsentError(withFuture)).toBe(true);
    // Closed: back on the consent, the modal gone, its grant button there again.
    const closed = run(withFuture, { type: 'grant_retry' });
    expect(closesConsentError(closed)).toBe(false);
    expect(closed).toMatchObject({ grant: 'idle', error: null, signatureBlock: null });
    for (const signatureBlock of ['no_passkey', 'not_on_device'] as const) {
      const failed = run(oneTap, { type: 'grant_failed', message: 'x', signatureBlock });
      expect(closesConsentError(failed)).toBe(false);
    }
    expect(closesConsentError(run(oneTap, { type: 'grant_failed', message: 'x' }))).toBe(false);
  });
});
