import { randomBytes } from 'node:crypto';
import { deriveKey, digestNumber, labelledDigest, openJson, sealJson, UNOPENED } from '../crypto.js';
import { registerRecordKey } from '../session/recordKeys.js';
import type { RecordKey } from '../session/recordKeys.js';

/** A new flow id: 128 random bits, URL-safe. */
export function newFlowId(): string {
  return randomBytes(16).toString('base64url');
}

/** Flow ids look like this; anything else in the `flow` parameter is refused before any lookup. */
export function isFlowId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
}

/**
 * The keys of what the store holds, derived from a server-side secret the store never sees
 * (the client secret, or the strategy's `storeSecret`). A reader of the store, even one who
 * also reads every session and so knows the flow ids, cannot compute a flow's key, its number
 * or a used token's mark, and cannot open a sealed approval.
 */
export class StoreSecrets {
  readonly #digestKey: Buffer;
  readonly #sealKey: Buffer;
  readonly #recordKey: RecordKey;

  constructor(secret: string | Buffer) {
    this.#digestKey = deriveKey(secret, 'store digests v2');
    this.#sealKey = deriveKey(secret, 'flow record v3');
    // Registered for the guards, which check login records without the strategy.
    this.#recordKey = registerRecordKey(secret);
  }

  /** The key that authenticates the login record and the pending sends in a session. */
  get recordKey(): RecordKey {
    return this.#recordKey;
  }

  /** The store key of a flow: a keyed digest, so the store never holds the id the link carries. */
  flowKey(flowId: string): string {
    return `flow:${labelledDigest(this.#digestKey, 'flow key', flowId)}`;
  }

  /**
   * The number the asking browser shows and the approving person types, 10 to 99: derived from
   * the flow id under the secret, so it is stored nowhere and only the app can compute it.
   */
  matchNumber(flowId: string): string {
    return String(digestNumber(this.#digestKey, 'match number', flowId, 10, 99));
  }

  /** A request id of a send as the flow record keeps it. */
  sendDigest(requestId: string): string {
    return labelledDigest(this.#digestKey, 'send request id', requestId);
  }

  /** The store key that marks a token used. */
  tokenKey(token: string): string {
    return `token:${labelledDigest(this.#digestKey, 'used token', token)}`;
  }

  /**
   * The store key that marks a flow's approval used at finish: a mark like a used token's (the
   * memory store never evicts one), so an approval read from the store and written back opens
   * no second login.
   */
  approvalUsedKey(flowId: string): string {
    return `token:${labelledDigest(this.#digestKey, 'used approval', flowId)}`;
  }

  /**
   * Seals a whole flow record (state, expiry, sends, approval): it opens only under this secret,
   * for this flow, so a writer of the store can delete or put back a record it read, never
   * change one or move one to another flow.
   */
  seal(flowId: string, value: unknown): string {
    return sealJson(this.#sealKey, value, `flow record\0${flowId}`);
  }

  /** The record `seal` sealed for this flow, or `undefined`. */
  open(flowId: string, sealed: unknown): unknown {
    const value = openJson(this.#sealKey, sealed, `flow record\0${flowId}`);
    return value === UNOPENED ? undefined : value;
  }
}
