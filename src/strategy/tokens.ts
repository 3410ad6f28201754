import { createHash } from 'node:crypto';
import type { FlowStore } from '../stores/types.js';
import type { TokenValidationResult } from '../wire/types.js';

/**
 * Marks a token used, across every instance sharing the store; false when it was already.
 * A store that does not answer fails the login (error), never lets a token through twice.
 */
export function useTokenOnce(store: FlowStore, token: string, maxAuthAgeMs: number): Promise<boolean> {
  const key = `token:${createHash('sha256').update(token).digest('base64url')}`;
  // Kept as long as a token could still pass the age check, and a little more for clock skew.
  return store.create(key, '1', maxAuthAgeMs + 60_000);
}

/**
 * When the person authenticated, by the service's clock: the latest verification time of an
 * identity, else the answer's `timestamp`; `undefined` when the answer gives neither.
 */
export function authenticatedAt(validated: TokenValidationResult): number | undefined {
  const times = validated.identities.map((i) => Date.parse(i.verifiedAt ?? '')).filter((t) => Number.isFinite(t));
  if (times.length > 0) return Math.max(...times);
  const stamp = Date.parse(validated.timestamp ?? '');
  return Number.isFinite(stamp) ? stamp : undefined;
}
