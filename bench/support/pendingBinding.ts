/**
 * The strategy's browser binding written by hand against the session records it keeps
 * (src/session/pending.ts, version 3), for the benchmark's baselines: the live send whose flow
 * id the link brought back, taken out of the session before verifying, then the service's
 * request id hashed and compared. The flow id is sealed in the session (AES-256-GCM under a key
 * derived from the store secret, the record's other fields and the session's id authenticated),
 * so a handler that binds must open it: this one does it with node:crypto alone, one open per
 * live send, nothing remembered between requests.
 */
import { createDecipheriv, createHash, hkdfSync, createHmac } from 'node:crypto';

/** A pending send as the session holds it. */
export interface StoredPending {
  version?: unknown;
  requestIdHashes?: unknown;
  destinationHashes?: unknown;
  expiresAt?: unknown;
  k?: unknown;
  f?: unknown;
}

/** The version of the records the strategy writes. */
const VERSION = 3;

/** The session-record key of a store secret and its public id, as the strategy derives them. */
export function recordKeyOf(secret: string): { id: string; key: Buffer } {
  const key = Buffer.from(hkdfSync('sha256', secret, 'passport-otpless', 'session records v1', 32));
  const id = createHmac('sha256', key).update('key id\0').digest().subarray(0, 16).toString('base64url').slice(0, 11);
  return { id, key };
}

/** The flow id sealed in `f`, or `undefined` when it does not open under this key and context. */
function openFlowId(key: Buffer, sealed: string, context: string): unknown {
  const parts = sealed.split('.');
  if (parts.length !== 3) return undefined;
  const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Finds the live send of `list` sealed with this flow id; `rest` is what stays in the session
 * (the other live sends). A cookie session has no id: the seal's context binds to ''.
 */
export function findPending(
  list: unknown,
  flow: unknown,
  recordKey: { id: string; key: Buffer },
  sessionId = '',
): { found: StoredPending; rest: StoredPending[] } | undefined {
  if (!Array.isArray(list) || typeof flow !== 'string') return undefined;
  const now = Date.now();
  const live = (list as StoredPending[]).filter(
    (p) =>
      p?.version === VERSION &&
      typeof p.expiresAt === 'number' &&
      p.expiresAt > now &&
      p.k === recordKey.id &&
      typeof p.f === 'string',
  );
  const found = live.find((p) => {
    const context = JSON.stringify([
      'pending send',
      p.k,
      sessionId,
      p.requestIdHashes,
      p.destinationHashes,
      p.expiresAt,
    ]);
    return openFlowId(recordKey.key, p.f as string, context) === flow;
  });
  if (!found) return undefined;
  return { found, rest: live.filter((p) => p !== found) };
}

/** Whether the service's request id is one the send got (its hash among the send's). */
export function requestIdMatches(pending: StoredPending, requestId: string): boolean {
  const hash = createHash('sha256').update(requestId).digest('base64url').slice(0, 22);
  return Array.isArray(pending.requestIdHashes) && pending.requestIdHashes.includes(hash);
}
