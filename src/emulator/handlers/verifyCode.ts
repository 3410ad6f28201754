import { apiError } from '../errors.js';
import { headerValue, readJsonObject, sendJson, stringField } from '../http.js';
import { completeLogin } from '../logins.js';
import { codeVerificationResult } from '../views.js';
import type { Handler } from './types.js';

/** POST /auth/v1/verify/code: a clicked link's code, once, before the link expires. */
export const verifyCode: Handler = async (ctx, req, res) => {
  const clientId = ctx.clients.require(headerValue(req, 'clientid'), headerValue(req, 'clientsecret'));
  const body = await readJsonObject(req);
  const code = stringField(body, 'code');
  const login = code === undefined ? undefined : ctx.store.findByCode(code);
  if (!login?.link || login.clientId !== clientId) throw apiError('invalidCode');
  if (login.codeUsed) throw apiError('invalidCode', 'The code was already used: start a new login.');
  if (ctx.clock.now() >= login.link.expiresAt) throw apiError('expired', 'The code is expired: send a new magic link.');
  // Spent before anything else can fail, so a code can never complete two logins.
  login.codeUsed = true;
  sendJson(res, 200, codeVerificationResult(completeLogin(ctx, login)));
};
