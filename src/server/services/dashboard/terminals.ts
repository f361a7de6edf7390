import { and, eq } from 'drizzle-orm';
import type {
  TDashboardTerminal,
  TDashboardTerminalAddRequest,
  TDashboardTerminalsResponse,
} from '../../../domain/schemas/dashboard-terminals';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import { merchantTerminals } from '../../db/schema';
import type { TPushTerminalPort } from '../../providers/payments';
import { AppError } from '../../app-error';
import { recordAudit, type TActor } from './audit';
import { isOff } from '../../providers/off';

/*
 * The merchant's card terminals in the dashboard (docs/providers/paystack-terminal.md
 * "Registering terminals"): where the chip terminal is one the server pushes payments to
 * (Paystack Terminal), owners register each terminal by its provider's id and a name payers see,
 * and remove it. A terminal belongs to one merchant (merchant_terminals' unique index on provider
 * and id): the same id again for the same merchant answers the terminal already there, for
 * another merchant TERMINAL_TAKEN. Each change is one statement with its audit row.
 */

type TTerminalContext = Pick<TAppContext, 'db' | 'clock' | 'providers'>;

type TRow = typeof merchantTerminals.$inferSelect;

const viewOf = (row: TRow): TDashboardTerminal => ({
  id: row.id,
  terminalId: row.terminalId,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

/** The pushed terminal this server serves, or null where its chip terminal is a reader. */
function pushedOrNull(ctx: Pick<TAppContext, 'providers'>): TPushTerminalPort | null {
  const { acquirer } = ctx.providers.payments;
  return !isOff(acquirer) && acquirer.kind === 'push' ? acquirer : null;
}

/** GET /api/dashboard/terminals: the merchant's terminals at this server's provider, by name. */
export async function listTerminals(
  ctx: TTerminalContext,
  merchantId: string,
): Promise<TDashboardTerminalsResponse> {
  const pushed = pushedOrNull(ctx);
  if (!pushed) return { success: true, pushed: false, terminals: [] };
  const rows = await ctx.db
    .select()
    .from(merchantTerminals)
    .where(
      and(
        eq(merchantTerminals.merchantId, merchantId),
        eq(merchantTerminals.provider, pushed.provider),
      ),
    )
    .orderBy(merchantTerminals.name);
  return { success: true, pushed: true, terminals: rows.map(viewOf) };
}

/**
 * POST /api/dashboard/terminals: registers a terminal the provider knows (its presence is asked
 * first: an id it does not know is TERMINAL_UNKNOWN, so a mistyped id never sits in the list).
 */
export async function addTerminal(
  ctx: TTerminalContext,
  who: TActor,
  input: TDashboardTerminalAddRequest,
): Promise<TDashboardTerminal> {
  const pushed = pushedOrNull(ctx);
  if (!pushed) throw new AppError('TERMINALS_NOT_PUSHED');
  if ((await pushed.terminalPresence(input.terminalId)) === 'unknown') {
    throw new AppError('TERMINAL_UNKNOWN');
  }
  const now = ctx.clock.now();
  const added = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(merchantTerminals)
      .values({
        id: randomId('trm'),
        merchantId: who.merchantId,
        provider: pushed.provider,
        terminalId: input.terminalId,
        name: input.name,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    await recordAudit(
      tx,
      who,
      { action: 'terminal.added', target: row.id, data: { terminalId: row.terminalId } },
      now,
    );
    return row;
  });
  if (added) return viewOf(added);
  // Registered before: the merchant's own is answered as it stands; another's is refused.
  const [existing] = await ctx.db
    .select()
    .from(merchantTerminals)
    .where(
      and(
        eq(merchantTerminals.provider, pushed.provider),
        eq(merchantTerminals.terminalId, input.terminalId),
      ),
    );
  if (existing?.merchantId !== who.merchantId) throw new AppError('TERMINAL_TAKEN');
  return viewOf(existing);
}

/**
 * DELETE /api/dashboard/terminals/:id: payers are no longer sent to it. A payment already waiting
 * at it is still completed by its notice or requery (attempts name the provider's request, not
 * this row).
 */
export async function removeTerminal(ctx: TTerminalContext, who: TActor, id: string) {
  const now = ctx.clock.now();
  const removed = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(merchantTerminals)
      .where(and(eq(merchantTerminals.id, id), eq(merchantTerminals.merchantId, who.merchantId)))
      .returning();
    if (!row) return null;
    await recordAudit(
      tx,
      who,
      { action: 'terminal.removed', target: row.id, data: { terminalId: row.terminalId } },
      now,
    );
    return row;
  });
  if (!removed) throw new AppError('TERMINAL_NOT_REGISTERED');
}
