import { useState } from 'react';

type TBankLogoProps = {
  account: { logo?: string | null | undefined; institutionCode: string | null; bankName: string };
};

/**
 * The bank's logo (spec §2 Account list row): the account's own, else the one we draw for the
 * bank; a logo that fails to load gives way to the default mark (spec §8), never a broken image.
 */
export function BankLogo({ account }: TBankLogoProps) {
  const [failed, setFailed] = useState(false);
  const src =
    account.logo ||
    (account.institutionCode
      ? `/api/bank-logos/${encodeURIComponent(account.institutionCode)}`
      : null);
  if (!src || failed) {
    return (
      <span className="bank-logo placeholder" aria-hidden="true">
        {account.bankName.trim().charAt(0).toUpperCase() || '?'}
      </span>
    );
  }
  return (
    <img
      className="bank-logo"
      src={src}
      alt=""
      width={36}
      height={36}
      onError={() => setFailed(true)}
    />
  );
}
