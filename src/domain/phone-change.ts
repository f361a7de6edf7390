import { maskedPhone } from './bvn';
import { formatNigerianPhone } from './schemas/auth';
import { formatLagosDateTime } from './payment-date';

/*
 * Changing the payer's sign-in number (docs/identity.md "Changing the phone number"): asked by a
 * session a trusted passkey proved, confirmed by a code sent to the NEW number; the OLD number
 * is told, and the sessions its SMS codes signed in end. The code is a sign-in code of the new
 * number (its length, lifetime, tries and hourly limit, schemas/auth.ts): any code that reaches
 * that number proves the payer holds it.
 */

/** The SMS the new number gets: its code, and the WebOTP line phones hand to the page. */
export function phoneChangeCodeMessage(input: {
  productName: string;
  code: string;
  minutes: number;
  host: string;
}): string {
  return `${input.productName}: your code is ${input.code}, to make this number your sign-in number. It expires in ${input.minutes} minutes. Never share it with anyone.\n\n@${input.host} #${input.code}`;
}

/** The answer once the number is changed: the number (E.164) the payer now signs in with. */
export function phoneChangedAnswer(phoneNumber: string): string {
  return `You now sign in with ${formatNigerianPhone(phoneNumber)}`;
}

/** The SMS the old number gets once the number is changed: when, to what, and what to do. */
export function phoneChangedMessage(input: {
  productName: string;
  newPhoneNumber: string;
  changedAt: Date;
  accountPageUrl: string;
}): string {
  const to = maskedPhone(formatNigerianPhone(input.newPhoneNumber));
  return `The sign-in number of your ${input.productName} account was changed from this number to ${to} on ${formatLagosDateTime(input.changedAt)}. If it was not you, sign in with your passkey at ${input.accountPageUrl}, change the number back and remove any device you do not know, and ask your mobile network whether your SIM was swapped.`;
}
