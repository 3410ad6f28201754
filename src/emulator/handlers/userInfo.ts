import { legacyError } from '../errors.js';
import { readForm, sendJsonText } from '../http.js';
import { lookupToken } from '../logins.js';
import { userInfo as userInfoView } from '../views.js';
import type { Handler } from './types.js';

/** POST /auth/userInfo: the legacy endpoint (form body, message-only error bodies). The benchmark's hot path. */
export const userInfo: Handler = async (ctx, req, res) => {
  const form = await readForm(req);
  const clientId = form.get('client_id');
  if (ctx.clients.check(clientId, form.get('client_secret')) !== 'ok') throw legacyError('invalidSecrets');
  const found = lookupToken(ctx, clientId as string, form.get('token') || undefined);
  if ('problem' in found) throw legacyError(found.problem === 'expired' ? 'tokenExpired' : 'invalidToken');
  // The answer never changes once the login is completed: serialize it once.
  const { login } = found;
  login.cache.userInfo ??= JSON.stringify(userInfoView(login));
  sendJsonText(res, 200, login.cache.userInfo);
};
