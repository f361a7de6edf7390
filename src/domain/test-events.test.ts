import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_DATA } from './schemas/webhook-events';
import { WEBHOOK_EVENT_TYPES } from './schemas/webhooks';
import { TEST_ID_MARK, testEventData, ZTestEventRequest } from './test-events';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const SUFFIX = 'Q2xk9Zr1';

/** Every id a sample names: its `…Id` fields and the members of its `…Ids` lists and `tries`. */
function idsOf(data: Record<string, unknown>): string[] {
  return Object.entries(data).flatMap(([key, value]): string[] => {
    if (key.endsWith('Id') && typeof value === 'string') return [value];
    if (key.endsWith('Ids') && Array.isArray(value)) return value as string[];
    if (key === 'tries' && Array.isArray(value)) {
      return value.flatMap((tri) => idsOf(tri as Record<string, unknown>));
    }
    return [];
  });
}

describe('test events', () => {
  it.each(WEBHOOK_EVENT_TYPES)(
    'gives %s a data its type’s schema takes whole, once the consent’s echo is added',
    (type) => {
      const data = {
        ...testEventData(type, { suffix: SUFFIX, now: NOW }),
        reference: null,
        metadata: {},
      };
      const parsed = WEBHOOK_EVENT_DATA[type].safeParse(data);
      expect(parsed.error).toBeUndefined();
      // Nothing the schema does not name (an object schema drops unknown keys).
      expect(parsed.data).toEqual(data);
    },
  );

  it.each(WEBHOOK_EVENT_TYPES)('marks every id of %s as a test one, with the suffix', (type) => {
    const ids = idsOf(testEventData(type, { suffix: SUFFIX, now: NOW }));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(new RegExp(`^[a-z]+_${TEST_ID_MARK}${SUFFIX}$`));
  });

  it('dates each sample at the time it is fired', () => {
    expect(testEventData('payment.completed', { suffix: SUFFIX, now: NOW }).executedAt).toBe(
      NOW.toISOString(),
    );
    expect(
      testEventData('consent.data_sharing_confirmed', { suffix: SUFFIX, now: NOW })
        .dataSharingExpiresAt,
    ).toBe('2027-11-23T10:00:00.000Z');
  });

  it('names the consent of the sample with the same id in every event of one suffix', () => {
    const consents = new Set(
      WEBHOOK_EVENT_TYPES.map(
        (type) => testEventData(type, { suffix: SUFFIX, now: NOW }).consentId,
      ),
    );
    expect([...consents]).toEqual([`cns_${TEST_ID_MARK}${SUFFIX}`]);
  });

  it('asks for one event type, and nothing else', () => {
    expect(ZTestEventRequest.safeParse({ type: 'payment.completed' }).success).toBe(true);
    expect(ZTestEventRequest.safeParse({ type: 'payment.done' }).success).toBe(false);
    expect(ZTestEventRequest.safeParse({ type: 'payment.completed', data: {} }).success).toBe(
      false,
    );
  });
});
