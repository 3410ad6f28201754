import type { IdentityType } from '../wire/types.js';
import { checkGuardOptions, createGuard, GUARD_OPTIONS } from './core.js';
import type { GuardMiddleware, GuardOptions } from './core.js';
import { refuse } from './refuse.js';

const GUARD = 'requireIdentity';
const TYPES: readonly IdentityType[] = ['MOBILE', 'EMAIL'];

/**
 * Lets a request through only when its login verified an identity of the given type
 * (a mobile number or an e-mail address); otherwise 403 `IDENTITY_REQUIRED`.
 *
 * @example
 * app.get('/sms-alerts', requireIdentity('MOBILE'), showAlerts);
 */
export function requireIdentity(type: IdentityType, options?: GuardOptions): GuardMiddleware {
  if (!TYPES.includes(type)) throw new TypeError(`${GUARD}(): the type must be 'MOBILE' or 'EMAIL'`);
  const opts = checkGuardOptions(GUARD, options, GUARD_OPTIONS);
  return createGuard(GUARD, opts, (req, res, next, record) => {
    if (record.verified.includes(type)) return next();
    refuse(req, res, 'IDENTITY_REQUIRED', opts.loginUrl);
  });
}
