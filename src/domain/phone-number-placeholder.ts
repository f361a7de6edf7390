const PLACEHOLDER = /\[\[PhoneNumber\]\]/g;

/** A bank message with '[[PhoneNumber]]' as the payer reads it: 'your phone number' (spec §2). */
export function replacePhoneNumberPlaceholder(message: string): string {
  return message.replace(PLACEHOLDER, 'your phone number');
}
