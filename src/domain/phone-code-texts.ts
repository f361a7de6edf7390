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
