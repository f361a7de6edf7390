import pino from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../domain/capabilities';
import { offPort } from '../providers/off';
import type { TProviderLists } from '../provider-lists';
import { registryOf, type TAdapter } from '../providers/registry';
import { measuredRegistry } from './measured-provider';

/** The provider metrics alone, on a registry of their own. */
function providerMetrics() {
  const registry = new Registry();
  const providerCalls = new Counter({
    name: 'calls',
    help: 'calls',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    registers: [registry],
  });
  const providerDuration = new Histogram({
    name: 'duration',
    help: 'duration',
    labelNames: ['provider', 'operation'] as const,
    registers: [registry],
  });
  const counted = async () =>
    (await providerCalls.get()).values.map(
      ({ labels, value }) => `${labels.provider} ${labels.operation} ${labels.outcome} ${value}`,
    );
  return { metrics: { providerCalls, providerDuration }, counted };
}

const answers =
  <T>(value: T) =>
  () =>
    Promise.resolve(value);

describe('the measured provider port', () => {
  it('counts the calls of sub-ports under their own provider and path, and leaves off capabilities be', async () => {
    const { metrics, counted } = providerMetrics();
    const ownDebits = {
      provider: 'remita',
      debitMandates: { kind: 'test_transfer' as const },
      debitAccount: answers({ kind: 'succeeded' as const, providerReference: 'd1' }),
    };
    const paystack = {
      name: 'paystack',
      debits: {
        provider: 'paystack',
        debitMandates: {
          kind: 'bank_page',
          open: answers({ providerReference: 'm1', formUrl: 'https://bank.example' }),
          status: answers({ kind: 'pending' }),
        },
      },
    } as unknown as TAdapter;
    const remita = {
      name: 'remita',
      mandates: { provider: 'remita', own: { mandatesBank: () => true, debits: ownDebits } },
    } as unknown as TAdapter;
    const lists = {
      ...Object.fromEntries(CAPABILITIES.map((capability) => [capability, []])),
      debits: ['paystack'],
      mandates: ['remita'],
    } as unknown as TProviderLists;
    const registry = registryOf(lists, [paystack, remita]);
    const measured = measuredRegistry(registry, metrics, pino({ level: 'silent' })).payments;

    const { debitMandates } = measured.debits as { debitMandates: { status(r: string): unknown } };
    await debitMandates.status('m1');
    const own = (measured.mandates as unknown as { own: { debits: typeof ownDebits } }).own;
    await own.debits.debitAccount();
    expect(measured.acquirer).toEqual(offPort('acquirer'));
    expect(await counted()).toEqual([
      'paystack debitMandates.status ok 1',
      'remita own.debits.debitAccount ok 1',
    ]);
  });
});
