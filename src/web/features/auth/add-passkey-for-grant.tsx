import type { TAddPasskeyProps } from '../../contracts/consent-slots';
import { NoPasskeyNotice } from '../../ui/no-passkey-notice';
import { usePasskeySupport } from '../../ui/use-passkey-support';
import { CreatePasskeyStep } from './create-passkey-step';
import { useSession } from './use-session';

/**
 * The grant's offer of a passkey: a signed-in payer with no passkey cannot
 * give the biometric approval that signs the grant, so the Consent Error modal offers to create
 * one right there. The passkey rules apply as at sign-in (docs/identity.md "When a passkey is
 * trusted"): a first passkey signs at once; one that must wait says until when. Where passkeys do
 * not work, it says so and offers to open the page in the browser instead.
 */
export function AddPasskeyForGrant({ onDone }: TAddPasskeyProps) {
  const { token } = useSession();
  const passkeys = usePasskeySupport();
  if (!token) return null;
  // No passkey can be made here (an app's browser): the browser can.
  if (!passkeys.usable) return <NoPasskeyNotice kind={passkeys.kind} />;
  return (
    <CreatePasskeyStep
      token={token}
      newAccount={false}
      lead="Your fingerprint, face or screen lock approves this consent. Create a passkey on this device to give that approval."
      // The modal says how long it must wait, beside what the payer can do meanwhile.
      saysWait={false}
      onDone={(created, signsFrom) => onDone(created ? { signsFrom: signsFrom ?? null } : null)}
    />
  );
}
