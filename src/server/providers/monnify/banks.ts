import type { TBank, TBanksPort } from '../payments';
import type { TMonnifyBank, TMonnifyBvnMatch, TMonnifyValidatedAccount } from './monnify-api';
import { MonnifyNoAnswer } from './monnify-client';
import type { TMonnify } from './monnify-shared';

/*
 * The bank list (GET /api/v1/banks), name enquiry (disbursements/account/validate: the holder's
 * name, never a BVN) and the BVN-account match (vas/bvn-account-match), which says at once
 * whether an account is held under a BVN. Monnify offers none of our ways to link an account
 * (no mandates here, no card on an account), so its banks list none.
 */

const BANK_LIST_TTL_MS = 6 * 60 * 60_000;

export function monnifyBanks(mf: TMonnify): TBanksPort {
  let kept: { at: number; banks: readonly TBank[] } | null = null;

  async function listBanks(): Promise<readonly TBank[]> {
    const now = mf.clock.now().getTime();
    if (kept && now - kept.at < BANK_LIST_TTL_MS) return kept.banks;
    const answer = await mf.client.read<TMonnifyBank[]>('/api/v1/banks');
    if (!answer.ok) throw new MonnifyNoAnswer('the bank list', answer.message);
    const banks = answer.body.map((bank) => ({
      institutionCode: bank.code,
      name: bank.name,
      integrations: [],
    }));
    kept = { at: now, banks };
    return banks;
  }

  return {
    provider: 'monnify',
    listBanks,
    lookupBank: async (institutionCode) =>
      (await listBanks()).find((bank) => bank.institutionCode === institutionCode) ?? null,

    async nameEnquiry({ institutionCode, accountNumber }) {
      const bank = (await listBanks()).find((b) => b.institutionCode === institutionCode);
      if (!bank) return null;
      const answer = await mf.client.read<TMonnifyValidatedAccount>(
        '/api/v1/disbursements/account/validate',
        { accountNumber, bankCode: institutionCode },
      );
      // Refused: the bank has no such account (Monnify answers 400 or 404 alike).
      if (!answer.ok) return null;
      return {
        accountName: answer.body.accountName,
        // Monnify gives no enquiry reference: ours names what was asked, so a repeat is the same.
        nameEnquiryId: `mnfy_ne_${institutionCode}_${accountNumber}`,
        integrations: bank.integrations,
        bvn: null,
      };
    },

    async checkAccountHolder({ bvn, institutionCode, accountNumber }) {
      const answer = await mf.client.write<TMonnifyBvnMatch>('/api/v1/vas/bvn-account-match', {
        bankCode: institutionCode,
        accountNumber,
        bvn,
      });
      if (!answer.ok) {
        if (answer.httpStatus === 400) return 'differs';
        throw new MonnifyNoAnswer('the BVN-account match', answer.message);
      }
      return answer.body.matchStatus === 'FULL_MATCH' ? 'matches' : 'differs';
    },
  };
}
