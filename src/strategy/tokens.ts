import type { StoreSecrets } from '../flow/seal.js';
import type { FlowStore } from '../stores/types.js';
import { readIsoTime } from '../wire/time.js';
import type { TokenValidationResult } from '../wire/types.js';
import { warnOnce } from '../errors/warnings.js';
import { latestVerifiedAt, UNLEARNED_MARK_MS } from '../login/tokenTimes.js';

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
 * While `verifiedAt` is known to date the sign-in (src/login/tokenTimes.ts), the mark lives
 * `maxAuthAgeMs + MAX_CLOCK_SKEW_MS` from its first use, on the store's (the app's) clock.
 * `isFreshToken` accepts a token only while
 * `-MAX_CLOCK_SKEW_MS <= now - authenticatedAt <= maxAuthAgeMs`, a window of that same length,
 * and at first use `authenticatedAt <= firstUse + MAX_CLOCK_SKEW_MS`: the window ends by
 * `firstUse + MAX_CLOCK_SKEW_MS + maxAuthAgeMs`, when the mark does. That holds only for a time
 * that dates the sign-in and stays put, which is why `authenticatedAt` does not take an answer's
 * `timestamp` of unknown meaning, and why a token accepted while that is not known is marked for
 * `UNLEARNED_MARK_MS` (24 hours) instead.
 *
 * What a mark costs: in memory 8 bytes a slot in a table at most half full (16 bytes a live
 * mark), kept up to 30 s past its expiry (src/stores/marks.ts), at most `maxMarks` (100,000 by
 * default; a full table fails the login, never skips the mark); in Redis one key
 * `<prefix>token:<22 characters>` with a `PX` expiry. 100 token logins a second with the default
 * 5 minutes hold about 39,000 marks (390 s of them): about 0.6 MB.
 */
export function useTokenOnce(store: FlowStore, secrets: StoreSecrets, token: string, markMs: number): Promise<boolean> {
  return store.create(secrets.tokenKey(token), '1', markMs);
}

/** How long a token accepted now stays marked used: see `useTokenOnce`. */
export function usedMarkMs(datesSignIn: boolean, maxAuthAgeMs: number): number {
  return datesSignIn ? maxAuthAgeMs + MAX_CLOCK_SKEW_MS : UNLEARNED_MARK_MS;
}

/**
 * Whether a token authenticated at `authAt` (the service's time stamp) may sign in at `now`
 * (ours): no older than `maxAuthAgeMs`, and no further ahead than the clock skew allows.
 */
export function isFreshToken(authAt: number, now: number, maxAuthAgeMs: number): boolean {
  return authAt - now <= MAX_CLOCK_SKEW_MS && now - authAt <= maxAuthAgeMs;
}

/**
 * What validate-token's `timestamp` stamps (unknown 6 of docs/service-facts.md; `otpless-check`
 * finds out): the time the person signed in (`'signIn'`), the time of each answer (`'answer'`),
 * or not known (`'unknown'`, the default).
 */
export type TimestampMeaning = 'signIn' | 'answer' | 'unknown';

/**
 * When the person authenticated, by the service's clock: the latest `verifiedAt` of an identity
 * (read strictly, src/wire/time.ts). The answer's `timestamp` counts only when it is known to
 * stamp the sign-in: stamped at answer time, it reads as fresh on every validation, no used mark
 * of bounded life could cover it, and a used token would sign in again once its mark lapsed.
 * `undefined` when nothing dates the sign-in: the login is refused (and the operator warned
 * once, `OTPLESS_TOKEN_TIME_UNKNOWN`, when only the `timestamp` was there).
 *
 * @example
 * const authAt = authenticatedAt(validated); // verifiedAt only
 * const authAt2 = authenticatedAt(validated, 'signIn'); // otpless-check found `timestamp` stamps the sign-in
 */
export function authenticatedAt(
  validated: TokenValidationResult,
  timestampMeans: TimestampMeaning = 'unknown',
): number | undefined {
  const latest = latestVerifiedAt(validated);
  if (latest !== undefined) return latest.at;
  const stamp = readIsoTime(validated.timestamp);
  if (stamp === undefined) return undefined;
  if (timestampMeans === 'signIn') return stamp;
  warnOnce('OTPLESS_TOKEN_TIME_UNKNOWN');
  return undefined;
}
