import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/**
 * A passkey authenticator in Node, for tests of the server's ceremonies without a browser: one
 * P-256 key, a registration answered with attestation 'none', sign-in answers signed as a platform authenticator signs them (user present and verified),
 * with the counter and origin a test chooses. Its public key is the COSE form the server stores.
 */
export class SoftAuthenticator {
  readonly id: string;
  readonly #privateKey: KeyObject;
  readonly publicKeyCose: Buffer;

  constructor(id = 'soft-credential-1') {
    this.id = Buffer.from(id).toString('base64url');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x!, 'base64url');
    const y = Buffer.from(jwk.y!, 'base64url');
    // COSE_Key, CBOR map {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
    this.publicKeyCose = Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
      x,
      Buffer.from([0x22, 0x58, 0x20]),
      y,
    ]);
  }

  /**
   * An answer to `navigator.credentials.create()` for `challenge`, as the browser posts it (JSON):
   * attestation 'none', user present and verified, this key's COSE public key and its id.
   */
  attest(options: { challenge: string; origin: string; rpId: string; counter?: number }): Record<string, unknown> {
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin: options.origin,
        crossOrigin: false,
      }),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(options.counter ?? 0);
    const rawId = Buffer.from(this.id, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authenticatorData = Buffer.concat([
      createHash('sha256').update(options.rpId).digest(),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      counter,
      Buffer.alloc(16), // AAGUID: none
      idLength,
      rawId,
      this.publicKeyCose,
    ]);
    // CBOR map {"fmt": "none", "attStmt": {}, "authData": bytes}.
    const bytesHead =
      authenticatorData.length < 256
        ? Buffer.from([0x58, authenticatorData.length])
        : Buffer.from([0x59, authenticatorData.length >> 8, authenticatorData.length & 0xff]);
    const attestationObject = Buffer.concat([
      Buffer.from([0xa3, 0x63]),
      Buffer.from('fmt'),
      Buffer.from([0x64]),
      Buffer.from('none'),
      Buffer.from([0x67]),
      Buffer.from('attStmt'),
      Buffer.from([0xa0, 0x68]),
      Buffer.from('authData'),
      bytesHead,
      authenticatorData,
    ]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** An answer to `navigator.credentials.get()` for `challenge`, as the browser posts it (JSON). */
  assert(options: {
    challenge: string;
    origin: string;
    rpId: string;
    counter: number;
    userHandle?: string | undefined;
  }): Record<string, unknown> {
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: options.origin,
        crossOrigin: false,
      }),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(options.counter);
    const authenticatorData = Buffer.concat([
      createHash('sha256').update(options.rpId).digest(),
      Buffer.from([0x05]), // user present, user verified
      counter,
    ]);
    const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]);
    const signature = sign('sha256', signed, this.#privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(options.userHandle !== undefined ? { userHandle: options.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}
