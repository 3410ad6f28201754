import { sessionOf } from './session.js';
import type { SessionLike } from './session.js';
import type { ServerResponse } from 'node:http';
import type { HttpRequest, NextFunction } from '../web/request.js';

/**
 * Middleware that gives cookie-session the `regenerate()` and `save()` methods Passport 0.6+
 * calls on login and logout. Without it a login with cookie-session answers 500
 * "req.session.regenerate is not a function" (passport#904).
 *
 * `regenerate` starts a new, empty session object (Passport's `keepSessionInfo` can still copy
 * the old one over), and clears the cookie if the session is still empty when the response
 * goes out (after a logout); `save` does nothing, since cookie-session writes the cookie
 * itself when the response is sent. With a cookie store there is no server-side session id to fix, so this
 * is safe. Sessions that already have both methods (express-session) are left alone.
 *
 * @example
 * app.use(cookieSession({ name: 'session', keys: [process.env.SESSION_KEY] }));
 * app.use(sessionCompat());
 * app.use(passport.session());
 */
export function sessionCompat(): (req: HttpRequest, res: ServerResponse, next: NextFunction) => void {
  return function sessionCompatMiddleware(req, res, next) {
    const session = sessionOf(req);
    if (session) patch(req, res, session);
    next();
  };
}

function patch(req: HttpRequest, res: ServerResponse, session: SessionLike): void {
  if (typeof session.regenerate !== 'function') {
    // Not enumerable: cookie-session serializes and counts enumerable keys only.
    Object.defineProperty(session, 'regenerate', {
      configurable: true,
      value(callback: (err?: unknown) => void) {
        req.session = {};
        const fresh = sessionOf(req);
        if (fresh) patch(req, res, fresh);
        clearIfEmptyOnHeaders(req, res);
        callback();
      },
    });
  }
  if (typeof session.save !== 'function') {
    Object.defineProperty(session, 'save', {
      configurable: true,
      value(callback?: (err?: unknown) => void) {
        callback?.();
      },
    });
  }
}

const CLEAR_HOOKED = Symbol('passport-otpless.clearIfEmpty');

/**
 * cookie-session never writes a new session that is empty, so after a logout the old cookie,
 * with the user in it, would stay. Setting `req.session = null` is cookie-session's way to
 * clear the cookie; it must happen before cookie-session's own header hook runs, and a
 * wrapper added to `writeHead` now runs before the one cookie-session added earlier.
 */
function clearIfEmptyOnHeaders(req: HttpRequest, res: ServerResponse): void {
  const marked = res as ServerResponse & { [CLEAR_HOOKED]?: boolean };
  if (marked[CLEAR_HOOKED]) return;
  marked[CLEAR_HOOKED] = true;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const session = sessionOf(req);
    if (session && Object.keys(session).length === 0) req.session = null;
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}
