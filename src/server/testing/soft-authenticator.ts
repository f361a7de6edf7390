// A software passkey authenticator for server tests: real P-256 keys, real CBOR attestation
// objects and real ECDSA assertions, so @simplewebauthn/server verifies them exactly as it
// verifies a phone's. (Playwright tests use Chromium's virtual authenticator instead.)
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type {
  TAuthenticationResponse,
  TRegistrationResponse,
  TWebAuthnOptions,
} from '../../domain/schemas/auth';

const b64 = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** Just enough CBOR (RFC 8949) for attestation objects and COSE keys. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts: Buffer[] = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new TypeError(`cbor: cannot encode ${typeof value}`);
}

type TSoftCredential = {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
};

export class SoftAuthenticator {
  readonly credentials: TSoftCredential[] = [];

  constructor(
    readonly rpId: string,
    readonly origin: string,
    /** false: the signature counter stays 0, as synced passkeys keep it (WebAuthn §6.1.1). */
    readonly countsSignatures = true,
  ) {}

  private authData(flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(this.rpId),
      Buffer.from([flags]),
      count,
      attested ?? Buffer.alloc(0),
    ]);
  }

  /** clientDataJSON; a topOrigin means the page ran in a cross-origin iframe of that page. */
  private clientData(
    type: 'webauthn.create' | 'webauthn.get',
    challenge: string,
    origin?: string,
    topOrigin?: string,
  ) {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge,
        origin: origin ?? this.origin,
        crossOrigin: Boolean(topOrigin),
        ...(topOrigin ? { topOrigin } : {}),
      }),
    );
  }

  /** navigator.credentials.create() with the server's options. */
  register(options: TWebAuthnOptions, overrides: { origin?: string } = {}): TRegistrationResponse {
    const user = options.user as { id: string };
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const id = Buffer.from(sha256(`${Math.random()}${Date.now()}`).subarray(0, 16));
    const idLength = Buffer.from([id.length >> 8, id.length & 0xff]);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey]);
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const authData = this.authData(0x45, 0, attested);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({
      id,
      privateKey,
      publicKey,
      userHandle: Buffer.from(user.id, 'base64url').toString('utf8'),
      counter: 0,
    });
    return {
      id: b64(id),
      rawId: b64(id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(
          this.clientData('webauthn.create', options.challenge, overrides.origin),
        ),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() for a challenge (sign-in options, or a grant digest). */
  assert(
    challenge: string,
    overrides: {
      credential?: TSoftCredential;
      origin?: string;
      topOrigin?: string;
      userVerified?: boolean;
    } = {},
  ): TAuthenticationResponse {
    const credential = overrides.credential ?? this.credentials[0];
    if (!credential) throw new Error('SoftAuthenticator: no credential registered');
    if (this.countsSignatures) credential.counter += 1;
    const flags = overrides.userVerified === false ? 0x01 : 0x05;
    const authData = this.authData(flags, credential.counter);
    const clientDataJSON = this.clientData(
      'webauthn.get',
      challenge,
      overrides.origin,
      overrides.topOrigin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: b64(credential.userHandle),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
