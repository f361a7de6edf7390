import { z } from 'zod/mini';
import { ZIdentifier, ZPrintable } from './fields';

/*
 * The dashboard's card terminals (docs/providers/paystack-terminal.md "Registering terminals"):
 * the merchant's certified terminals its payers pay at, where the chip terminal is one the server
 * pushes payments to (Paystack Terminal). Owners register and remove them.
 */

const ok = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ success: z.literal(true), ...shape });

/** A terminal's id at its provider, as Paystack's dashboard shows it (e.g. Z0R4orOU). */
const ZProviderTerminalId = z
  .string()
  .check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a terminal id'));

/** One of the merchant's terminals. */
export const ZDashboardTerminal = z.object({
  /** Ours: what the payer's page sends a payment to. */
  id: z.string(),
  /** The provider's id of it (Paystack's terminal_id). */
  terminalId: z.string(),
  /** What payers see, e.g. 'Till 2'. */
  name: z.string(),
  createdAt: z.string(),
});
export type TDashboardTerminal = z.infer<typeof ZDashboardTerminal>;

/** GET /api/dashboard/terminals: the merchant's terminals, and whether this server pushes. */
export const ZDashboardTerminalsResponse = ok({
  /** False where the chip terminal is a card reader (the sandbox's): none can be registered. */
  pushed: z.boolean(),
  terminals: z.array(ZDashboardTerminal),
});
export type TDashboardTerminalsResponse = z.infer<typeof ZDashboardTerminalsResponse>;

/** POST /api/dashboard/terminals body. */
export const ZDashboardTerminalAddRequest = z.object({
  terminalId: ZProviderTerminalId,
  name: ZPrintable(60).check(z.trim(), z.minLength(1)),
});
export type TDashboardTerminalAddRequest = z.infer<typeof ZDashboardTerminalAddRequest>;

/** Its answer: the terminal registered (the one already there, for the same id again). */
export const ZDashboardTerminalResponse = ok({ terminal: ZDashboardTerminal });

/** DELETE /api/dashboard/terminals/:id params. */
export const ZDashboardTerminalParams = z.object({ id: ZIdentifier });
