import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

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
  return createHmac('sha256', key).update(`${label}\0${value}`).digest().subarray(0, 16).toString('base64url');
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
