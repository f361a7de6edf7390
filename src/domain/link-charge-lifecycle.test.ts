import { describe, expect, it } from 'vitest';
import {
  CARD_LINK_CHARGE_STAGES,
  LINK_CHARGE_TRANSITIONS,
  type TLinkChargeState,
} from './link-charge-lifecycle';
import { statesLeft, statesReached } from './test-support/lifecycle-reach';

describe("the card link's test charge lifecycle", () => {
  it('reaches every stage and its end from charging, the stage a link is opened in', () => {
    const every: TLinkChargeState[] = [...CARD_LINK_CHARGE_STAGES, 'ended'];
    expect(statesReached(['charging'], LINK_CHARGE_TRANSITIONS)).toEqual(every.sort());
  });

  it('never moves a charge that ended', () => {
    expect(statesLeft(LINK_CHARGE_TRANSITIONS).has('ended')).toBe(false);
  });

  it('asks the payer and links the card only from the network, and takes each answer back to it', () => {
    expect(LINK_CHARGE_TRANSITIONS).toEqual({
      askOtp: { from: ['charging'], to: 'awaiting_otp' },
      ask3ds: { from: ['charging'], to: 'awaiting_3ds' },
      takeOtp: { from: ['awaiting_otp'], to: 'charging' },
      takeThreeDsResult: { from: ['awaiting_3ds'], to: 'charging' },
      link: { from: ['charging'], to: 'ended' },
      end: { from: ['charging', 'awaiting_otp', 'awaiting_3ds'], to: 'ended' },
    });
  });
});
