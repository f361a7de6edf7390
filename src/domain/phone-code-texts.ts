import { BVN_CODE_LENGTH } from './bvn';
import { formatNigerianPhone, PHONE_CODE_LENGTH } from './schemas/auth';

/*
 * What the payer reads of a one-time code sent by SMS (docs/identity.md): the SMS of a sign-in
 * code, and the answer of each call that sends a code, which the page shows above the code
 * field. A new sign-in number's own texts are in phone-change.ts.
 */

/** The SMS of a sign-in code. Its last line is the WebOTP format, so phones offer the code. */
export function signInCodeMessage(input: {
  productName: string;
  code: string;
  minutes: number;
  host: string;
}): string {
  return `${input.productName}: your code is ${input.code}. It expires in ${input.minutes} minutes. Never share it with anyone.\n\n@${input.host} #${input.code}`;
}

/** A sign-in code (or a new number's) went to this number (E.164), written as payers write it. */
export function codeSentMessage(phoneNumber: string): string {
  return `We sent a ${PHONE_CODE_LENGTH}-digit code to ${formatNigerianPhone(phoneNumber)}`;
}

/*
 * A BVN code was asked for. The words are the same whatever the BVN, and name no phone: they tell
 * nobody whether the registry knows the BVN, nor the phone it is registered with (docs/identity.md
 * "The BVN").
 */
export const BVN_CODE_SENT_MESSAGE = `If this BVN is on record, we sent a ${BVN_CODE_LENGTH}-digit code to the phone number it is registered with.`;
/** The same, when the code was asked for again from the code field. */
export const BVN_CODE_RESENT_MESSAGE =
  'If this BVN is on record, we sent a new code to the phone number it is registered with.';
