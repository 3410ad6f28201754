import { apiError } from '../errors.js';
import { readForm, sendJsonText } from '../http.js';
import { lookupToken } from '../logins.js';
import { userInfo as userInfoView } from '../views.js';
import type { Handler } from './types.js';

/**
 * POST /auth/userInfo: form body with the credentials in it. The benchmark's hot path. Errors
 * use the service's documented vocabulary like every other endpoint (the message-only bodies
 * once assumed for it are not backed by any public source: service-facts.md).
 */
export const userInfo: Handler = async (ctx, req, res) => {
  const form = await readForm(req);
  const clientId = ctx.clients.require(form.get('client_id'), form.get('client_secret'));
  const token = form.get('token');
  if (!token) throw apiError('invalidParameters', 'Request error: token is required.');
  const found = lookupToken(ctx, clientId, token);
  if ('problem' in found) throw apiError(found.problem === 'expired' ? 'expired' : 'invalidToken');
  // The answer never changes once the login is completed: serialize it once.
  const { login } = found;
  login.cache.userInfo ??= JSON.stringify(userInfoView(login));
  sendJsonText(res, 200, login.cache.userInfo);
};
