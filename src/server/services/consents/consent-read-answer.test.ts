import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { TDatabase } from '../../db/database';
import {
  batchedConsentAnswers,
  CONSENT_READ_BATCH_SIZE,
  CONSENT_READ_QUERIES_IN_FLIGHT,
} from './consent-read-answer';

// How reads share queries, on a database whose queries answer when the test says: which ids
// each query asked for, and when it was sent.

type TQuery = { ids: string[]; answer(): void; fail(error: Error): void };

function heldDatabase() {
  const queries: TQuery[] = [];
  const database: Pick<TDatabase, 'rows'> = {
    rows: (_statement, [ids]) =>
      new Promise((resolve, reject) => {
        const asked = [...new Set(ids as string[])];
        const number = queries.length + 1;
        queries.push({
          ids: asked,
          // Each known id (not 'cns_unknown') answers with a body naming it and its query's number.
          answer: () =>
            resolve(
              asked
                .filter((id) => id !== 'cns_unknown')
                .map((id) => [id, 'cli_1', 0, true, `${id}@${number}`]),
            ),
          fail: reject,
        });
      }),
  };
  return { database, queries };
}

const bodyOf = (answer: { body: string } | null) => answer?.body ?? null;

describe('consent reads sharing queries', () => {
  it('sends a lone read once its turn is handled, and answers it', async () => {
    const { database, queries } = heldDatabase();
    const read = batchedConsentAnswers(database);
    const answer = read('cns_a');
    await nextTurn();
    expect(queries.map((q) => q.ids)).toEqual([['cns_a']]);
    queries[0]?.answer();
    expect(bodyOf(await answer)).toBe('cns_a@1');
  });

  it('answers an unknown id with null and the others of its query with theirs', async () => {
    const { database, queries } = heldDatabase();
    const read = batchedConsentAnswers(database);
    const answers = Promise.all([read('cns_a'), read('cns_unknown'), read('cns_a')]);
    await nextTurn();
    expect(queries.map((q) => q.ids)).toEqual([['cns_a', 'cns_unknown']]);
    queries[0]?.answer();
    expect((await answers).map(bodyOf)).toEqual(['cns_a@1', null, 'cns_a@1']);
  });

  it('keeps at most the set number of queries out: reads arriving meanwhile wait and share one', async () => {
    const { database, queries } = heldDatabase();
    const read = batchedConsentAnswers(database);
    const early: Array<Promise<unknown>> = [];
    for (let turn = 0; turn < CONSENT_READ_QUERIES_IN_FLIGHT; turn += 1) {
      early.push(read(`cns_${turn}`));
      await nextTurn();
    }
    expect(queries).toHaveLength(CONSENT_READ_QUERIES_IN_FLIGHT);

    // Three more turns of reads while both queries are out: none is sent yet.
    const later = [read('cns_x')];
    await nextTurn();
    later.push(read('cns_y'));
    await nextTurn();
    later.push(read('cns_x'));
    await nextTurn();
    expect(queries).toHaveLength(CONSENT_READ_QUERIES_IN_FLIGHT);

    // A query answers: every read that waited goes in the one query sent in its place.
    queries[0]?.answer();
    await nextTurn();
    expect(queries.map((q) => q.ids).slice(CONSENT_READ_QUERIES_IN_FLIGHT)).toEqual([
      ['cns_x', 'cns_y'],
    ]);
    queries.forEach((q) => q.answer());
    const sent = CONSENT_READ_QUERIES_IN_FLIGHT + 1;
    expect((await Promise.all(later)).map(bodyOf)).toEqual([
      `cns_x@${sent}`,
      `cns_y@${sent}`,
      `cns_x@${sent}`,
    ]);
    await Promise.all(early);
  });

  it('never answers a read with a query sent before the read began', async () => {
    const { database, queries } = heldDatabase();
    const read = batchedConsentAnswers(database);
    const first = read('cns_a');
    await nextTurn();
    const second = read('cns_a');
    await nextTurn();
    expect(queries.map((q) => q.ids)).toEqual([['cns_a'], ['cns_a']]);
    queries.forEach((q) => q.answer());
    expect([bodyOf(await first), bodyOf(await second)]).toEqual(['cns_a@1', 'cns_a@2']);
  });

  it('splits more ids than one query asks for, and sends each part', async () => {
    const { database, queries } = heldDatabase();
    const read = batchedConsentAnswers(database);
    const ids = Array.from({ length: CONSENT_READ_BATCH_SIZE + 3 }, (_, i) => `cns_${i}`);
    const answers = Promise.all(ids.map((id) => read(id)));
    await nextTurn();
    expect(queries.map((q) => q.ids)).toEqual([
      ids.slice(0, CONSENT_READ_BATCH_SIZE),
      ids.slice(CONSENT_READ_BATCH_SIZE),
    ]);
    queries.forEach((q) => q.answer());
    expect((await answers).map((answer) => answer?.body.split('@')[0])).toEqual(ids);
  });

  it("hands a query's failure to each of its reads, and the next reads still go out", async () => {
    const { database, queries } = heldDatabase();
    const read = batchedConsentAnswers(database, 1);
    const failing = Promise.allSettled([read('cns_a'), read('cns_b')]);
    await nextTurn();
    const waiting = read('cns_c');
    await nextTurn();
    expect(queries).toHaveLength(1);
    queries[0]?.fail(new Error('connection lost'));
    expect((await failing).map((r) => r.status === 'rejected' && String(r.reason))).toEqual([
      'Error: connection lost',
      'Error: connection lost',
    ]);
    await nextTurn();
    expect(queries.map((q) => q.ids)).toEqual([['cns_a', 'cns_b'], ['cns_c']]);
    queries[1]?.answer();
    expect(bodyOf(await waiting)).toBe('cns_c@2');
  });
});
