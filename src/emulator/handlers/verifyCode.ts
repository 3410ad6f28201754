import { apiError } from '../errors.js';
import { headerValue, readJsonObject, requiredString, sendJson } from '../http.js';
import { completeLogin, newRequestId } from '../logins.js';
import { codeVerificationResult, legacyCodeVerificationResult } from '../views.js';
import { NOT_SUCCESS } from './tokenEndpoints.js';
import type { Handler } from './types.js';

/**
 * POST /auth/v1/verify/code: a clicked link's code, once, before the link expires. An unknown
 * or used code is 400 7114 ("invalid token": no better-documented code exists for a code).
 */
export const verifyCode: Handler = async (ctx, req, res) => {
  const clientId = ctx.clients.require(headerValue(req, 'clientid'), headerValue(req, 'clientsecret'));
  const body = await readJsonObject(req);
  const code = requiredString(body, 'code');
  const login = ctx.store.findByCode(code);
  if (!login?.link || login.clientId !== clientId) throw apiError('invalidToken', 'Request error: Invalid code');
  if (login.codeUsed) throw apiError('invalidToken', 'Request error: The code was already used');
  if (ctx.clock.now() >= login.link.expiresAt) throw apiError('expired', 'Request error: Code is expired');
  // Spent before anything else can fail, so a code can never complete two logins.
  login.codeUsed = true;
  const next = ctx.nextLogin;
  ctx.nextLogin = undefined;
  const completed = completeLogin(ctx, login, next?.unverified);
  const requestId = ctx.quirks.requestIdMismatch ? newRequestId() : login.requestId;
  const view = ctx.quirks.legacyVerifyShape ? legacyCodeVerificationResult : codeVerificationResult;
  const answer = view(completed, requestId);
  if (ctx.quirks.statusNotSuccess) {
    answer.userDetails.status = NOT_SUCCESS;
    answer.message = 'Code verification did not complete';
  }
  sendJson(res, 200, answer);
};
