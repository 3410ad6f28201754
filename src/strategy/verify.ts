import type { HttpRequest } from '../web/request.js';
import type { MagicLinkProfile } from './profile.js';

/** What `verify` hands back: a user, or `false`/`null` with an optional reason. */
export type VerifiedUser = object | false | null | undefined;

/** Failure details passed to `done(null, false, info)`; reach Passport's failure handling. */
export interface VerifyFailureInfo {
  message?: string;
  [key: string]: unknown;
}

/** Node-style callback given to `verify`. */
export type VerifyCallback = (err?: unknown, user?: VerifiedUser, info?: VerifyFailureInfo) => void;

/**
 * Maps a verified profile to your app's user: call `done(null, user)`, `done(null, false, info)`
 * to refuse, or `done(err)`; or return a promise of the user (a rejection is an error).
 */
export type VerifyFunction = (profile: MagicLinkProfile, done: VerifyCallback) => void | PromiseLike<VerifiedUser>;

/** As `VerifyFunction`, with the request first (option `passReqToCallback: true`). */
export type VerifyFunctionWithRequest = (
  req: HttpRequest,
  profile: MagicLinkProfile,
  done: VerifyCallback,
) => void | PromiseLike<VerifiedUser>;

export interface VerifyOutcome {
  user: VerifiedUser;
  info: VerifyFailureInfo | undefined;
}

/**
 * Runs `verify` in whichever style it was written (callback or promise) and settles once.
 * A throw, a rejection or `done(err)` all reject.
 */
export function runVerify(
  verify: VerifyFunction | VerifyFunctionWithRequest,
  passReqToCallback: boolean,
  req: HttpRequest,
  profile: MagicLinkProfile,
): Promise<VerifyOutcome> {
  return new Promise<VerifyOutcome>((resolve, reject) => {
    const done = settleOnce(resolve, reject);
    const result = passReqToCallback
      ? (verify as VerifyFunctionWithRequest)(req, profile, done)
      : (verify as VerifyFunction)(profile, done);
    if (result && typeof (result as PromiseLike<VerifiedUser>).then === 'function') {
      (result as PromiseLike<VerifiedUser>).then(
        (user) => done(null, user),
        (err: unknown) => done(err ?? new Error('verify rejected without a reason')),
      );
    }
  });
}

/**
 * The `done` given to verify. A promise settles once, so the first of `done()` and a returned
 * promise wins and any later answer changes nothing.
 */
function settleOnce(resolve: (outcome: VerifyOutcome) => void, reject: (err: unknown) => void): VerifyCallback {
  return (err, user, info) => {
    if (err) reject(err);
    else resolve({ user, info });
  };
}
