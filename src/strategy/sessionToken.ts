import type { LoginSetup } from '../login/compose.js';
import { isSameOriginPost } from '../web/origin.js';
import type { HttpRequest } from '../web/request.js';
import { readEpochMs } from '../wire/time.js';
import { isRejectedByService } from '../login/failures.js';
import type { CallbackFailureCode } from '../errors/callbackCodes.js';
import type { VerifiedLogin } from './finishLogin.js';
import { isFreshToken, usedMarkMs, useTokenOnce } from './tokens.js';

/**
 * The spec's third exchange: a session token of the service's sessions (the one a frontend that
 * uses them holds), POSTed from a page of this site, read through get-session-details.
 *
 * - Same-origin POST only, like a frontend token: a page elsewhere must not log a victim in as
 *   the attacker (login CSRF).
 * - Fresh only while the service session started within `maxAuthAgeMs` (`startedAt`, on the same
 *   rule and clock skew as a token's age); a session with no readable `startedAt` is refused.
 *   Not `lastActiveAt`: the service may move it on every get-session-details call (the emulator
 *   does), the very call made here, so any live session would read as fresh.
 * - Signs in once, like a frontend token: marked used (src/strategy/tokens.ts) for as long as
 *   its age check could accept it. A token learnt later (a log, a leaked store, a shoulder) opens
 *   no second login, nor the same person's after a logout: the app's own session is what lasts,
 *   and `requireServiceSession()` ends it with the service's. (Binding it to "the session that
 *   presented it" instead would bind to nothing stable: Passport gives every login a new session.)
 * - Its identities count as verified only where the service dates their verification
 *   (src/strategy/profile.ts): session details carry no `verified`.
 */
export async function verifySessionToken(
  setup: LoginSetup,
  req: HttpRequest,
  sessionToken: string,
): Promise<VerifiedLogin | CallbackFailureCode> {
  if (!isSameOriginPost(req, setup.callbackUrl)) return 'CROSS_SITE';
  let details;
  try {
    details = await setup.client.getSessionDetails(sessionToken);
  } catch (err) {
    if (isRejectedByService(err)) return 'TOKEN_REJECTED';
    throw err;
  }
  const startedAt = readEpochMs(details.startedAt);
  const now = Date.now();
  if (startedAt === undefined || !isFreshToken(startedAt, now, setup.maxAuthAgeMs)) return 'TOKEN_REJECTED';
  if (!(await useTokenOnce(setup.store, setup.secrets, sessionToken, usedMarkMs(true, setup.maxAuthAgeMs))))
    return 'TOKEN_REJECTED';
  return {
    viaToken: false,
    viaSession: true,
    token: sessionToken,
    verification: undefined,
    enrichments: { sessionDetails: details },
    signalsAt: Math.min(startedAt, now),
  };
}
