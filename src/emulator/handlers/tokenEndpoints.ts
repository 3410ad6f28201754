import { apiError } from '../errors.js';
import { headerValue, readJsonObject, sendJson, requiredString } from '../http.js';
import { lookupToken, type CompletedLogin } from '../logins.js';
import { secureInfoResult, tokenValidationResult } from '../views.js';
import type { Handler } from './types.js';

/** A JSON endpoint taking `{ token }` with credentials in headers, answering a view of the login. */
function tokenEndpoint(view: (login: CompletedLogin) => unknown): Handler {
  return async (ctx, req, res) => {
    const clientId = ctx.clients.require(headerValue(req, 'clientid'), headerValue(req, 'clientsecret'));
    const body = await readJsonObject(req);
    const found = lookupToken(ctx, clientId, requiredString(body, 'token'));
    if ('problem' in found) throw apiError(found.problem === 'expired' ? 'expired' : 'invalidToken');
    sendJson(res, 200, view(found.login));
  };
}

/** POST /auth/v1/validate/token (spec 4.4). */
export const validateToken = tokenEndpoint(tokenValidationResult);

/** POST /auth/v1/secure-info (spec 4.5). */
export const secureInfo = tokenEndpoint(secureInfoResult);
