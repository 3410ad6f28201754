import type { StoreSecrets } from '../flow/seal.js';
import type { FlowStore } from '../stores/types.js';
import type { TokenValidationResult } from '../wire/types.js';

/**
 * How far in the future (by our clock) the service may place an authentication and still be
 * believed. Past it the token is refused: a service clock running ahead would otherwise let a
 * token pass the age check after its used mark has gone.
 */
export const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * Marks a token used, across every instance sharing the store; false when it was already.
 * A store that does not answer fails the login (error), never lets a token through twice.
 *
 * The mark lives `maxAuthAgeMs + MAX_CLOCK_SKEW_MS` from its first use. `isFreshToken` accepts a
 * token only while `-MAX_CLOCK_SKEW_MS <= now - authenticatedAt <= maxAuthAgeMs`, a window of
 * that same length on our clock, so no token the age check accepts outlives its mark, whatever
 * the service's clock says.
 */
export function useTokenOnce(
  store: FlowStore,
  secrets: StoreSecrets,
  token: string,
  maxAuthAgeMs: number,
): Promise<boolean> {
  return store.create(secrets.tokenKey(token), '1', maxAuthAgeMs + MAX_CLOCK_SKEW_MS);
}

/**
 * Whether a token authenticated at `authAt` (the service's time stamp) may sign in at `now`
 * (ours): no older than `maxAuthAgeMs`, and no further ahead than the clock skew allows.
 */
export function isFreshToken(authAt: number, now: number, maxAuthAgeMs: number): boolean {
  return authAt - now <= MAX_CLOCK_SKEW_MS && now - authAt <= maxAuthAgeMs;
}

/**
 * When the person authenticated, by the service's clock: the latest verification time of an
 * identity, else the answer's `timestamp`; `undefined` when the answer gives neither.
 */
export function authenticatedAt(validated: TokenValidationResult): number | undefined {
  // A missing time reads as the text 'undefined' (as `Date.parse` would read it), which is NaN.
  const times = validated.identities.map((i) => Date.parse(String(i.verifiedAt))).filter((t) => Number.isFinite(t));
  if (times.length > 0) return Math.max(...times);
  const stamp = Date.parse(String(validated.timestamp));
  return Number.isFinite(stamp) ? stamp : undefined;
}
