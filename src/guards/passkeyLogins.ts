import type { ServerResponse } from 'node:http';
import type { HttpRequest, NextFunction } from '../web/request.js';
import type { GuardVerdict, RequireLowRiskOptions } from './lowRiskTypes.js';
import { refuse } from './refuse.js';

/**
 * `requireLowRisk()` on a passkey sign-in: there are no signals to judge (no service call was
 * made). Refused, failing closed (403 `PASSKEY_NOT_ACCEPTED`), unless the route accepts passkey
 * logins by name (`passkeyLogins: 'accept'`); either way `req.risk` says why, with the one
 * reason `missing` / `passkey`.
 */
export function judgePasskeyLogin(
  req: HttpRequest,
  res: ServerResponse,
  next: NextFunction,
  opts: Pick<RequireLowRiskOptions, 'passkeyLogins' | 'observeOnly' | 'loginUrl'>,
): void {
  const accept = opts.passkeyLogins === 'accept';
  const action = accept ? 'allow' : 'block';
  const verdict: GuardVerdict = {
    action,
    reasons: [{ signal: 'missing', action, detail: 'passkey' }],
    signalsAt: null,
    stale: false,
    refreshed: false,
  };
  (req as HttpRequest & { risk?: GuardVerdict }).risk = verdict;
  if (accept || opts.observeOnly) return next();
  refuse(req, res, 'PASSKEY_NOT_ACCEPTED', opts.loginUrl);
}
