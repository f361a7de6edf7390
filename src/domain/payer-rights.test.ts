import { describe, expect, it } from 'vitest';
import {
  answerDueAt,
  exportFieldLabel,
  exportState,
  nameCorrection,
  PAYER_RIGHTS_TEXTS,
  payerRightsLine,
} from './payer-rights';

describe('answerDueAt', () => {
  it('is the same day of the next month', () => {
    expect(answerDueAt(new Date('2031-03-14T10:00:00Z')).toISOString()).toBe(
      '2031-04-14T10:00:00.000Z',
    );
  });

  it('is the next month’s last day when it has no such day, across a year', () => {
    expect(answerDueAt(new Date('2031-01-31T10:00:00Z')).toISOString()).toBe(
      '2031-02-28T10:00:00.000Z',
    );
    expect(answerDueAt(new Date('2031-12-31T10:00:00Z')).toISOString()).toBe(
      '2032-01-31T10:00:00.000Z',
    );
  });
});

describe('nameCorrection', () => {
  it('lets the payer correct a name they gave, not one their BVN verified', () => {
    expect(nameCorrection({ bvnVerified: false })).toEqual({ correctable: true });
    expect(nameCorrection({ bvnVerified: true })).toMatchObject({
      correctable: false,
      why: expect.stringContaining('verified with your BVN'),
    });
  });
});

describe('payerRightsLine', () => {
  const row = {
    kind: 'erasure' as const,
    receivedAt: '2031-03-14T10:00:00Z',
    dueAt: '2031-04-14T10:00:00Z',
  };
  it('says when an open request is answered by, and when a done one was done', () => {
    const day = (iso: string) => iso.slice(0, 10);
    expect(payerRightsLine({ ...row, status: 'received', doneAt: null }, day)).toEqual({
      label: 'Erasure of your data',
      state: 'received 2031-03-14, answered by 2031-04-14',
    });
    expect(
      payerRightsLine({ ...row, status: 'done', doneAt: '2031-03-15T10:00:00Z' }, day).state,
    ).toBe('received 2031-03-14, done 2031-03-15');
  });
});

describe('exportState', () => {
  const day = (iso: string) => iso.slice(0, 10);
  it('says a copy is being prepared until its job is done', () => {
    expect(exportState({ status: 'received', expiresAt: null }, new Date(), day)).toBe(
      PAYER_RIGHTS_TEXTS.copyPreparing,
    );
  });

  it('gives a ready copy its link’s expiry, then says it expired', () => {
    const ready = { status: 'done' as const, expiresAt: '2031-03-08T10:00:00.000Z' };
    expect(exportState(ready, new Date('2031-03-08T09:59:59Z'), day)).toBe(
      'Ready. We sent the link to your phone by SMS; it opens your copy until 2031-03-08.',
    );
    expect(exportState(ready, new Date('2031-03-08T10:00:00Z'), day)).toBe(
      'The link expired on 2031-03-08. Ask again for a new copy.',
    );
  });
});

describe('exportFieldLabel', () => {
  it('titles a field of the file as a payer reads it', () => {
    expect(exportFieldLabel('createdAt')).toBe('Created at');
    expect(exportFieldLabel('bvn_last4')).toBe('Bvn last4');
  });
});
