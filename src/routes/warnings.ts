import type { ServerResponse } from 'node:http';
import { replyOf } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import { warnOnce } from '../errors/warnings.js';

/**
 * The three setup mistakes a first login meets and nothing else reports: each told once, to the
 * operator, where a developer looks (stderr, `process.on('warning')`), never to the visitor.
 */

/**
 * A send from a page whose origin is not `callbackUrl`'s: the link will return to another
 * origin, whose cookies are another jar, so the browser that asked is not the one the link
 * finds (`localhost` against `127.0.0.1` is the usual case).
 */
export function warnIfOriginDiffers(req: HttpRequest, callbackUrl: string): void {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return;
  const expected = new URL(callbackUrl).origin;
  let from: string;
  try {
    from = new URL(origin).origin;
  } catch {
    return;
  }
  if (from === expected) return;
  warnOnce(
    'OTPLESS_ORIGIN_DIFFERS',
    `passport-otpless: a link was asked for from ${from}, but links return to ${expected} (callbackUrl), ` +
      'another cookie jar: the browser will not find its sign-in there. Open the app at ' +
      `${expected}, or set callbackUrl to the origin the app is opened at.`,
  );
}

/**
 * A send that wrote its pending sign-in to a session whose cookie never reached the browser:
 * a `secure` cookie over plain http, or a session middleware that saves nothing. Judged when
 * the answer is finished, for a browser that brought no cookie at all (one that did may keep
 * its cookie without a new `Set-Cookie`).
 */
export function watchSessionCookie(req: HttpRequest, res: ServerResponse): void {
  if (req.headers.cookie !== undefined) return;
  res.once('finish', () => {
    const reply = replyOf(res) as { getHeader?(name: string): unknown } | undefined;
    const set = res.getHeader('set-cookie') ?? reply?.getHeader?.('set-cookie');
    if (set !== undefined || res.statusCode >= 400) return;
    warnOnce(
      'OTPLESS_SESSION_COOKIE_NOT_SET',
      'passport-otpless: a link was sent, but the answer set no session cookie, so the browser that asked ' +
        "will not be recognised when the link comes back. Over plain http, a session cookie must not be 'secure' " +
        '(express-session: cookie.secure; @fastify/session: cookie: { secure: false }); check that the session ' +
        'middleware runs before the route.',
    );
  });
}
