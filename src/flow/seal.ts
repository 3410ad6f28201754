import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/**
 * The cryptography of a flow. The flow id travels only in the link and in the asking browser's
 * session; the store sees its hash as the key and, for an approved flow, the verification
 * sealed with a key derived from the id. A stolen store entry names no flow and opens no login.
 */

/** A new flow id: 128 random bits, URL-safe. */
export function newFlowId(): string {
  return randomBytes(16).toString('base64url');
}

/** The store key of a flow: a hash, so the store never holds the id the link carries. */
export function flowKey(flowId: string): string {
  return `flow:${createHash('sha256').update(`passport-otpless flow key\0${flowId}`).digest('base64url')}`;
}

/** The number the asking browser shows and the approving person types: 10 to 99. */
export function newMatchNumber(): string {
  return String(randomInt(10, 100));
}

/** Flow ids look like this; anything else in the `flow` parameter is refused before any lookup. */
export function isFlowId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
}

function sealKey(flowId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', flowId, 'passport-otpless', 'flow seal v1', 32));
}

/** AES-256-GCM of a JSON value under the flow's key: `iv.tag.ciphertext`, base64url. */
export function seal(flowId: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(flowId), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** The value `seal` sealed, or `undefined` when it was not sealed for this flow or was altered. */
export function unseal(flowId: string, sealed: string): unknown {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(flowId), iv);
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
  } catch {
    return undefined;
  }
}
