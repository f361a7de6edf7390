import { CAPABILITIES, type TCapabilitiesOn, type TCapability } from '../../domain/capabilities';

/**
 * Each capability's adapter, or why it is off (docs/going-live.md): what the start prints a line
 * of, GET /api/health/ready lists, and the consent's creation and read go by.
 */
export type TCapabilityLine =
  | {
      capability: TCapability;
      state: 'on';
      /** The first of `providers`: what serves new work while it is healthy (docs/routing.md). */
      adapter: string;
      /**
       * Every provider of the capability, in order: new work goes to the first that is healthy,
       * the rest stand by (docs/routing.md).
       */
      providers: string[];
      note: string | null;
    }
  | { capability: TCapability; state: 'off'; adapter: null; providers: []; note: string };

/** Whether each capability is on: what the consent's creation and read go by. */
export function capabilitiesOn(lines: readonly TCapabilityLine[]): TCapabilitiesOn {
  return Object.fromEntries(
    CAPABILITIES.map((capability) => [
      capability,
      lines.some((line) => line.capability === capability && line.state === 'on'),
    ]),
  ) as TCapabilitiesOn;
}
