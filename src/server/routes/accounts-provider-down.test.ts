// The payer's accounts while the provider does not answer (docs/accounts.md): the list of their
// own accounts still answers, each linked account as its links show it; the BVN registry's list
// answers 502 in the catalogue shape, never a 500 or a wrong list.
import { describe, expect, it, vi } from 'vitest';
import { ERROR_CATALOGUE } from '../../domain/errors';
import { ownPerson } from '../testing/bvn';
import { payerWithPasskey } from '../testing/identity';
import { linkByTestTransfer } from '../testing/payments';
import { useTestApp } from '../testing/test-app';
import { usable } from '../providers/off';

const ctx = useTestApp();

describe('the payer’s accounts while the provider does not answer', () => {
  it('lists their linked account as linked without the bank list', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const listBanks = vi
      .spyOn(usable(ctx.context.providers.payments.banks), 'listBanks')
      .mockRejectedValue(new Error('connect ETIMEDOUT'));
    try {
      const listed = await ctx.app.inject({
        method: 'GET',
        url: '/api/accounts/user',
        headers: payer.headers,
      });
      expect(listed.statusCode, listed.body).toBe(200);
      const account = listed
        .json<{ accounts: Array<{ bankId: string; status: string; integrations: object }> }>()
        .accounts.find((a) => a.bankId === accountId);
      expect(account).toMatchObject({
        status: 'approved',
        integrations: { transactionService: { linked: true } },
      });
    } finally {
      listBanks.mockRestore();
    }
  });

  it('answers 502 for the accounts under their BVN when the bank list does not answer', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    await ownPerson(ctx.app, payer.token);
    const accountsOfBvn = vi
      .spyOn(usable(ctx.context.providers.payments.banks), 'listBanks')
      .mockRejectedValueOnce(new Error('connect ETIMEDOUT'));
    const answer = await ctx.app.inject({
      method: 'GET',
      url: '/api/accounts/bvn',
      headers: payer.headers,
    });
    accountsOfBvn.mockRestore();
    expect(answer.statusCode).toBe(502);
    expect(answer.json()).toEqual({
      success: false,
      error: {
        code: 'ACCOUNT_VALIDATION_FAILED',
        message: ERROR_CATALOGUE.ACCOUNT_VALIDATION_FAILED.message,
      },
    });
  });
});
