const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * SHA-256 of a signing message, base64url: the WebAuthn challenge a passkey signs for a grant, a
 * revocation or another passkey's approval. The server recomputes it from the same message.
 */
export const signingChallenge = async (message: string) =>
  base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(message)));
