import type { ServerResponse } from 'node:http';
import { warnOnce } from '../errors/warnings.js';
import { replyOf } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';

/** @fastify/session's session, as far as this check reads it. */
interface ServerSession {
  isModified(): boolean;
  encryptedSessionId: string;
}

let seen = false;

/**
 * Called as the status route answers a waiting page's poll: when the session is
 * @fastify/session's, the poll changed nothing, and the answer still carries the session's cookie
 * (its `rolling: true`, the default), warns once (`OTPLESS_SESSION_RESENT`). Such a re-sent cookie,
 * answered after a login in another tab, puts the session from before the login back. The
 * package cannot turn `rolling` off; the operator can. Nothing is watched once it has warned.
 */
export function watchSessionResent(req: HttpRequest, res: ServerResponse): void {
  if (seen) return;
  const session = req.session as Partial<ServerSession> | undefined;
  if (typeof session?.isModified !== 'function' || typeof session.encryptedSessionId !== 'string') return;
  if (session.isModified()) return;
  const id = session.encryptedSessionId;
  const reply = replyOf(res) as { getHeader?: (name: string) => unknown } | undefined;
  res.once('finish', () => {
    const sent: unknown = reply?.getHeader?.('set-cookie') ?? res.getHeader('set-cookie');
    const cookies = Array.isArray(sent) ? sent.map(String) : sent === undefined ? [] : [String(sent)];
    const encoded = encodeURIComponent(id);
    if (seen || !cookies.some((c) => c.includes(`=${encoded};`) || c.includes(`=${id};`))) return;
    seen = true;
    warnOnce('OTPLESS_SESSION_RESENT');
  });
}
