import type { TAddPasskeyProps } from '../../contracts/consent-slots';
import { CreatePasskeyStep } from './create-passkey-step';
import { useSession } from './use-session';

/**
 * The grant's offer of a passkey (issue 28 item 10): a signed-in payer with no passkey cannot
 * give the biometric approval that signs the grant, so the Consent Error modal offers to create
 * one right there. The passkey rules apply as at sign-in (docs/identity.md "When a passkey is
 * trusted"): a first passkey signs at once; one that must wait says until when.
 */
export function AddPasskeyForGrant({ onDone }: TAddPasskeyProps) {
  const { token } = useSession();
  if (!token) return null;
  return (
    <CreatePasskeyStep
      token={token}
      newAccount={false}
      lead="Your fingerprint, face or screen lock approves this consent. Create a passkey on this device to give that approval."
      onDone={(created, signsFrom) => onDone(created ? { signsFrom: signsFrom ?? null } : null)}
    />
  );
}
