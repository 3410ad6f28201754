import type { ServerResponse } from 'node:http';
import { sessionOf, sessionValue } from '../session/session.js';
import { nodeArgs } from '../web/host.js';
import type { HostArgs, HostHandler } from '../web/host.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { LOGIN_RECORD_KEY } from '../session/loginRecord.js';
import type { LoginRecord } from '../session/loginRecord.js';
import { readCheckedLogin } from '../session/checkedLogins.js';
import type { RiskVerdict } from '../risk/index.js';
import { isSafeLocalPath } from '../web/origin.js';
import { OtplessSetupError } from '../errors/index.js';
import { refuse } from './refuse.js';
import { stringWhere } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { CheckedOptions, OptionTable } from '../options/table.js';

/** Options every guard takes. */
export interface GuardOptions {
  /** Where a browser asking for HTML goes when not logged in (a path on this site). JSON clients get 401. */
  loginUrl?: string;
}

/** Express/Connect middleware and Fastify preHandler, as every guard factory returns it. */
export type GuardMiddleware = HostHandler<HttpRequest>;

/**
 * A guard's own decision, given a logged-in request and its login record. `record` is shared by
 * the requests of the same login: read it, never change it. `verdicts`: what guards concluded
 * from that record's signals, by guard, kept with it.
 */
export type GuardDecision = (
  req: HttpRequest,
  res: ServerResponse,
  next: NextFunction,
  record: LoginRecord,
  verdicts: Map<string, RiskVerdict>,
) => void | Promise<void>;

interface PassportRequest {
  user?: unknown;
  isAuthenticated?: () => boolean;
}

/** The options every guard takes: a guard's own table spreads these into it. */
export const GUARD_OPTIONS = {
  loginUrl: {
    check: stringWhere(isSafeLocalPath, "a path on this site, such as '/login'"),
    defaultDoc: 'none',
    doc: 'a browser that is not logged in is sent here (303); JSON clients get 401',
  },
} satisfies OptionTable<GuardOptions>;

/**
 * Checks a guard's options against its table (`GUARD_OPTIONS`, or its own with those spread in);
 * an unknown key or a bad value throws a TypeError naming it.
 */
export function checkGuardOptions<T extends OptionTable<GuardOptions>>(
  guard: string,
  options: unknown,
  table: T,
): CheckedOptions<T> {
  // Own keys only (no prototype): a polluted Object.prototype.loginUrl is no option.
  return checkOptionsArgument(table, `${guard}()`, options === undefined ? {} : options, 'an object');
}

/**
 * The part every guard shares: a visitor who is not logged in gets 401 (or the login page),
 * a setup without a session or without a magic-link login gets an error naming what is
 * missing, and only then does the guard's own decision run. Every async path ends in `next`.
 */
export function createGuard(guard: string, options: GuardOptions, decide: GuardDecision): GuardMiddleware {
  return function otplessGuard(...given: HostArgs<HttpRequest>) {
    const [req, res, next] = nodeArgs(...given);
    const passportReq = req as unknown as PassportRequest;
    const loggedIn =
      typeof passportReq.isAuthenticated === 'function' ? passportReq.isAuthenticated() : Boolean(passportReq.user);
    if (!loggedIn) return refuse(req, res, 'UNAUTHENTICATED', options.loginUrl);
    if (!sessionOf(req)) return next(OtplessSetupError.missingSession());
    const login = readCheckedLogin(req);
    // A record that is not this user's: another login (another strategy's, say) replaced the
    // magic-link one in this session. That login must sign in again: 401, as for no login.
    const stored = sessionValue(sessionOf(req), LOGIN_RECORD_KEY);
    if (!login && stored !== undefined && stored !== null) {
      return refuse(req, res, 'UNAUTHENTICATED', options.loginUrl);
    }
    if (!login) {
      return next(
        new OtplessSetupError(
          'NO_LOGIN_RECORD',
          `${guard}() found no magic-link login in this session: protect only routes reached after ` +
            "passport.authenticate('magic-link'), and keep passport.session() before the guard.",
        ),
      );
    }
    try {
      const pending: unknown = decide(req, res, next, login.record, login.verdicts);
      // A handler may return anything (`res.send()` returns `res`): only a promise is awaited.
      if (pending && typeof (pending as Promise<void>).then === 'function')
        (pending as Promise<void>).then(undefined, next);
    } catch (err) {
      next(err);
    }
  };
}
