import type { ServerResponse } from 'node:http';
import { answerCookies } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import { warnOnce } from '../errors/warnings.js';

/**
 * The setup mistakes a login meets and nothing else reports: each told once, to the operator,
 * where a developer looks (stderr, `process.on('warning')`), never to the visitor.
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
  warnOnce('OTPLESS_ORIGIN_DIFFERS', from, expected);
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
    if (answerCookies(res) !== undefined || res.statusCode >= 400) return;
    warnOnce('OTPLESS_SESSION_COOKIE_NOT_SET');
  });
}

/** @fastify/session's session, as far as `watchSessionResent` reads it. */
interface ServerSession {
  isModified(): boolean;
  encryptedSessionId: string;
}

/** Set once `watchSessionResent` has warned: no poll is watched after. */
let resentSeen = false;

/**
 * Called as the status route answers a waiting page's poll: when the session is
 * @fastify/session's, the poll changed nothing, and the answer still carries the session's cookie
 * (its `rolling: true`, the default), warns once (`OTPLESS_SESSION_RESENT`). Such a re-sent cookie,
 * answered after a login in another tab, puts the session from before the login back. The
 * package cannot turn `rolling` off; the operator can.
 */
export function watchSessionResent(req: HttpRequest, res: ServerResponse): void {
  if (resentSeen) return;
  const session = req.session as Partial<ServerSession> | undefined;
  if (typeof session?.isModified !== 'function' || typeof session.encryptedSessionId !== 'string') return;
  if (session.isModified()) return;
  const id = session.encryptedSessionId;
  res.once('finish', () => {
    const encoded = encodeURIComponent(id);
    const resent = answerCookies(res)?.some((c) => c.includes(`=${encoded};`) || c.includes(`=${id};`));
    if (resentSeen || !resent) return;
    resentSeen = true;
    warnOnce('OTPLESS_SESSION_RESENT');
  });
}
