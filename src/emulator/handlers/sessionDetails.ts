import { apiError } from '../errors.js';
import { headerValue, readJsonObject, sendJson, requiredString } from '../http.js';
import type { CompletedLogin } from '../logins.js';
import { sessionDetails as sessionDetailsView } from '../views.js';
import type { Handler } from './types.js';

/**
 * POST /v1/sessions/get-session-details: the session token from the outbox entry works once the
 * login is completed (code verified, or issueToken), and while it is used at least every
 * `sessionIdleMs`.
 */
export const sessionDetails: Handler = async (ctx, req, res) => {
  const clientId = ctx.clients.require(headerValue(req, 'clientid'), headerValue(req, 'clientsecret'));
  const body = await readJsonObject(req);
  const sessionToken = requiredString(body, 'sessionToken');
  const login = ctx.store.findBySessionToken(sessionToken);
  if (!login || login.clientId !== clientId) throw apiError('invalidToken', 'Request error: Invalid session token');
  if (!login.completion)
    throw apiError('invalidToken', 'Request error: The session is not active: the login has not completed yet');
  const now = ctx.clock.now();
  if (now >= ctx.store.sessionExpiresAt(login)) throw apiError('expired', 'Request error: Session is expired');
  login.lastActiveAt = now;
  sendJson(res, 200, sessionDetailsView(login as CompletedLogin));
};
