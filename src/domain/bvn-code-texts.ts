import { BVN_CODE_LENGTH } from './bvn';

/*
 * What the payer reads while the BVN registry proves their BVN (docs/identity.md "The BVN"). The
 * registry sends the code itself, not this server: with Mono it is NIBSS, through its iGree
 * consent, to the contact of the BVN's holder the payer picks among the registry's masked hints;
 * in the sandbox it is the sandbox registry, by SMS to the outbox. The spec has no BVN step: these
 * words are the product's own.
 */

/** Who sends the code, as the payer is told. */
export type TBvnCodeSender = 'nibss' | 'sandbox';

const SENDER_NAME: Record<TBvnCodeSender, string> = {
  nibss: 'NIBSS',
  sandbox: 'The sandbox BVN registry',
};

/** Above the ways the code can go: who sends it, and that the payer picks where. */
export function bvnMethodsIntro(sender: TBvnCodeSender): string {
  return `${SENDER_NAME[sender]} sends your code, not us. Choose where it should go: only part of each number or address is shown.`;
}

/**
 * Once the code went the way chosen (`hint`, the registry's masked words for it, as they come:
 * 'SMS to 0803***4567', or Mono's 'Sms with a verification code will be sent to phone …').
 */
export function bvnCodeSentMessage(sender: TBvnCodeSender, hint: string): string {
  return `${SENDER_NAME[sender]} sent a ${BVN_CODE_LENGTH}-digit code the way you chose: ${hint}`;
}

/** The same, when the payer asked for it again. */
export function bvnCodeResentMessage(sender: TBvnCodeSender): string {
  return `${SENDER_NAME[sender]} sent a new code. Use the newest one.`;
}
