import type { LoginSetup } from '../login/compose.js';
import { isSameOriginPost } from '../web/origin.js';
import type { HttpRequest } from '../web/request.js';
import { readEpochMs } from '../wire/time.js';
import { isRejectedByService } from '../login/failures.js';
import type { CallbackFailureCode } from '../errors/callbackCodes.js';
import type { VerifiedLogin } from './finishLogin.js';
import { isFreshToken } from './tokens.js';

/**
 * The spec's third exchange: a session token of the service's sessions (the one a frontend that
 * uses them holds), POSTed from a page of this site, read through get-session-details.
 *
 * - Same-origin POST only, like a frontend token: a page elsewhere must not log a victim in as
 *   the attacker (login CSRF).
 * - Fresh only while the service saw the session active within `maxAuthAgeMs` (`lastActiveAt`,
 *   on the same rule and clock skew as a token's age); a session with no readable
 *   `lastActiveAt` is refused.
 * - Its identities count as verified only where the service dates their verification
 *   (src/strategy/profile.ts): session details carry no `verified`.
 * - Not marked used: a session token stands for the service's session, which the person may
 *   resume; what ends it is the service, not one login.
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
  const lastActiveAt = readEpochMs(details.lastActiveAt);
  const now = Date.now();
  if (lastActiveAt === undefined || !isFreshToken(lastActiveAt, now, setup.maxAuthAgeMs)) return 'TOKEN_REJECTED';
  return {
    viaToken: false,
    viaSession: true,
    token: sessionToken,
    verification: undefined,
    enrichments: { sessionDetails: details },
    signalsAt: Math.min(lastActiveAt, now),
  };
}
