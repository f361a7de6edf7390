import { describe, expect, it } from 'vitest';
import {
  COMPLAINT_REFERENCE_ALPHABET,
  COMPLAINT_REFERENCE_PATTERN,
  COMPLAINT_REFERENCE_SERIALS,
  complaintReference,
  COMPLAINT_TRANSITIONS,
  complaintClockLines,
  complaintDeadlines,
  DEFAULT_COMPLAINT_ACKNOWLEDGE_HOURS,
  DEFAULT_COMPLAINT_RESOLVE_DAYS,
} from './complaints';

describe('complaints', () => {
  const targets = {
    acknowledgeHours: DEFAULT_COMPLAINT_ACKNOWLEDGE_HOURS,
    resolveDays: DEFAULT_COMPLAINT_RESOLVE_DAYS,
  };

  it('sets the targets three days and two weeks after the complaint is raised', () => {
    const raisedAt = new Date('2026-12-01T09:00:00Z');
    expect(complaintDeadlines(raisedAt, targets)).toEqual({
      acknowledgeBy: new Date('2026-12-04T09:00:00Z'),
      resolveBy: new Date('2026-12-15T09:00:00Z'),
    });
  });

  it('says by when each target is due, and that it is late once passed', () => {
    const complaint = {
      acknowledgeBy: '2026-12-04T09:00:00Z',
      resolveBy: '2026-12-15T09:00:00Z',
      acknowledgedAt: null,
      resolvedAt: null,
    };
    expect(complaintClockLines(complaint, new Date('2026-12-02T00:00:00Z'))).toEqual([
      'To be acknowledged by 4 Dec 2026, 10:00 am',
      'To be resolved by 15 Dec 2026, 10:00 am',
    ]);
    expect(complaintClockLines(complaint, new Date('2026-12-05T00:00:00Z'))[0]).toBe(
      'To be acknowledged by 4 Dec 2026, 10:00 am (late)',
    );
  });

  it('says when a met target was met', () => {
    const lines = complaintClockLines(
      {
        acknowledgeBy: '2026-12-04T09:00:00Z',
        resolveBy: '2026-12-15T09:00:00Z',
        acknowledgedAt: '2026-12-02T08:00:00Z',
        resolvedAt: null,
      },
      new Date('2026-12-20T00:00:00Z'),
    );
    expect(lines).toEqual([
      'Acknowledged 2 Dec 2026, 9:00 am',
      'To be resolved by 15 Dec 2026, 10:00 am (late)',
    ]);
  });

  it('resolves from received or acknowledged, and acknowledges only what was received', () => {
    expect(COMPLAINT_TRANSITIONS.acknowledge.from).toEqual(['received']);
    expect(COMPLAINT_TRANSITIONS.resolve.from).toEqual(['received', 'acknowledged']);
  });

  it('makes references of letters a payer cannot misread', () => {
    expect(COMPLAINT_REFERENCE_ALPHABET).not.toMatch(/[01IO]/);
    expect('CP-7K2M9QRT').toMatch(COMPLAINT_REFERENCE_PATTERN);
    expect('CP-7k2m9qrt').not.toMatch(COMPLAINT_REFERENCE_PATTERN);
  });

  it('gives every serial its own reference, consecutive ones far apart', () => {
    const serials = [
      ...Array.from({ length: 5_000 }, (_, i) => BigInt(i)),
      ...Array.from({ length: 1_000 }, (_, i) => COMPLAINT_REFERENCE_SERIALS - 1n - BigInt(i)),
    ];
    const references = serials.map(complaintReference);
    expect(new Set(references).size).toBe(serials.length);
    for (const reference of references) expect(reference).toMatch(COMPLAINT_REFERENCE_PATTERN);
    expect(
      references.every((r) =>
        [...r.slice(3)].every((c) => COMPLAINT_REFERENCE_ALPHABET.includes(c)),
      ),
    ).toBe(true);
    // Consecutive complaints share no visible count: their references differ in their first letters.
    expect(references[0]?.slice(0, 5)).not.toBe(references[1]?.slice(0, 5));
    expect(() => complaintReference(-1n)).toThrow(RangeError);
    expect(() => complaintReference(COMPLAINT_REFERENCE_SERIALS)).toThrow(RangeError);
  });
});
