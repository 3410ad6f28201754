import * as crypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** `crypto.hash` where this Node has it (20.12+). */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;

/**
 * The package's few cryptographic primitives, in one place: a key derived for one purpose, a
 * labelled keyed digest, and AES-256-GCM seal/open with the context authenticated.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key for one purpose (`label`), derived from a secret with HKDF-SHA256. */
export function deriveKey(secret: string | Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'passport-otpless', label, 32));
}

/**
 * A keyed digest of `value` for one purpose: HMAC-SHA256 over `label\0value`, 128 bits in
 * base64url (22 characters). Without the key it cannot be computed, so a store that holds it
 * learns nothing it could check a guess against.
 */
export function labelledDigest(key: Buffer, label: string, value: string): string {
  return mac128(key, `${label}\0${value}`);
}

/**
 * The first 128 bits of HMAC-SHA256(key, text) in base64url (22 characters): the same text as
 * `digest().subarray(0, 16).toString('base64url')`, without the two Buffers a login paid for
 * each digest. The 16 bytes are 21 characters and 2 bits: the 22nd character keeps those 2 bits
 * and 4 zero bits, so it is the full digest's 22nd character with its last 4 bits cleared.
 */
export function mac128(key: Buffer, text: string): string {
  const full = createHmac('sha256', key).update(text).digest('base64url');
  return full.slice(0, 21) + (TOP_TWO_BITS[full.charCodeAt(21)] as string);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** By a base64url character's code: the character of its value with the low 4 bits cleared (A, Q, g or w). */
const TOP_TWO_BITS: readonly string[] = (() => {
  const table: string[] = [];
  for (let value = 0; value < 64; value++) table[BASE64URL.charCodeAt(value)] = BASE64URL[value & 0x30] as string;
  return table;
})();

/**
 * SHA-256 of a text in base64url: `crypto.hash` (Node 20.12+, a one-shot call, several times
 * cheaper than a Hash object on texts this short) where there is one, `createHash` otherwise.
 */
export function sha256Base64url(text: string): string {
  return typeof oneShotHash === 'function'
    ? oneShotHash('sha256', text, 'base64url')
    : createHash('sha256').update(text).digest('base64url');
}

/** A keyed digest of `value` as an integer in [min, max], for a short number both sides derive. */
export function digestNumber(key: Buffer, label: string, value: string, min: number, max: number): number {
  const mac = createHmac('sha256', key).update(`${label}\0${value}`).digest();
  // 48 bits over a span of at most a few hundred: the modulo's bias is below 2^-40.
  return min + (mac.readUIntBE(0, 6) % (max - min + 1));
}

/**
 * AES-256-GCM of a JSON value: `iv.tag.ciphertext` in base64url. `context` is authenticated
 * too, so a sealed value only opens where it was written for.
 */
export function sealJson(key: Buffer, value: unknown, context: string): string {
  const iv = randomBytes(IV_BYTES);
  // GCM's tag is 16 bytes unless asked otherwise; `Buffer.from` reads text as UTF-8.
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(Buffer.from(JSON.stringify(value))), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** What `openJson` gives when the value does not open (another key or context, altered, malformed). */
export const UNOPENED = Symbol('unopened');

/** The value `sealJson` sealed under `key` and `context`, or `UNOPENED`. Never throws. */
export function openJson(key: Buffer, sealed: unknown, context: string): unknown {
  if (typeof sealed !== 'string') return UNOPENED;
  const parts = sealed.split('.');
  if (parts.length !== 3) return UNOPENED;
  const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
  try {
    // A short tag would weaken the authentication: with `authTagLength`, `setAuthTag` throws for
    // any tag but the full 16 bytes. An IV of another length does not authenticate.
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
  } catch {
    return UNOPENED;
  }
}
