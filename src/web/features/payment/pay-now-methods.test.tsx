// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES_ON, payMethodsOn } from '../../../domain/capabilities';
import { PaymentMethods } from './pay-now-methods';

afterEach(cleanup);

/** The methods as a server with these capabilities draws them, a card entered before among them. */
function drawn(
  on: typeof ALL_CAPABILITIES_ON,
  terminalKind: 'reader' | 'push' = 'reader',
): string[] {
  const offers = payMethodsOn(
    on,
    terminalKind === 'push' ? { kind: 'push' } : { kind: 'reader', readerReachable: true },
  );
  render(
    <PaymentMethods
      // Only its masked number is drawn.
      storedCard={{ obfuscatedCard: '**** 4081' } as never}
      resending={false}
      openingCard={false}
      offers={offers}
      terminalKind={terminalKind}
      terminalButton={createRef()}
      onPayByTransfer={() => undefined}
      onRetryCard={() => undefined}
      onPayWithCard={() => undefined}
      onOpenTerminal={() => undefined}
    />,
  );
  return screen
    .getAllByRole('button')
    .map((button) => button.querySelector('.method-name')!.textContent);
}

describe('the ways to pay', () => {
  it('offers each way where its capability is on', () => {
    expect(drawn(ALL_CAPABILITIES_ON)).toEqual([
      'Pay by Transfer',
      'Pay with Card | **** 4081',
      'Pay with Card',
      'Chip Card Terminal',
    ]);
  });

  it('offers no way whose capability is off: no dead buttons', () => {
    expect(drawn({ ...ALL_CAPABILITIES_ON, transfersIn: false, acquirer: false })).toEqual([
      'Pay with Card | **** 4081',
      'Pay with Card',
    ]);
    cleanup();
    expect(drawn({ ...ALL_CAPABILITIES_ON, cards: false })).toEqual([
      'Pay by Transfer',
      'Chip Card Terminal',
    ]);
  });

  it('names the merchant’s terminal where the server pushes the payment to it', () => {
    drawn(ALL_CAPABILITIES_ON, 'push');
    expect(screen.getByRole('button', { name: /Chip Card Terminal/ }).textContent).toContain(
      'Pay on the merchant’s card terminal',
    );
  });
});
