import { apiError } from '../errors.js';
import { headerValue, readJsonObject, sendJson, requiredString } from '../http.js';
import { lookupToken, type CompletedLogin } from '../logins.js';
import { secureInfoResult, tokenValidationResult } from '../views.js';
import type { Handler } from './types.js';

/** The state answered under the `statusNotSuccess` quirk. */
export const NOT_SUCCESS = 'NOT_FOUND';

/** A JSON endpoint taking `{ token }` with credentials in headers, answering a view of the login. */
function tokenEndpoint<T extends object>(
  view: (login: CompletedLogin) => T,
  adjust: (answer: T, ctx: Parameters<Handler>[0]) => T = (answer) => answer,
): Handler {
  return async (ctx, req, res) => {
    const clientId = ctx.clients.require(headerValue(req, 'clientid'), headerValue(req, 'clientsecret'));
    const body = await readJsonObject(req);
    const found = lookupToken(ctx, clientId, requiredString(body, 'token'));
    if ('problem' in found) throw apiError(found.problem === 'expired' ? 'expired' : 'invalidToken');
    const answer = adjust(view(found.login), ctx);
    sendJson(res, 200, ctx.quirks.statusNotSuccess ? { ...answer, status: NOT_SUCCESS } : answer);
  };
}

/** POST /auth/v1/validate/token (spec 4.4). */
export const validateToken = tokenEndpoint(tokenValidationResult, (answer, ctx) => {
  let out = answer;
  if (ctx.quirks.timestampAtAnswer) out = { ...out, timestamp: new Date(ctx.clock.now()).toISOString() };
  if (ctx.quirks.verifiedAtAtAnswer) {
    const at = new Date(ctx.clock.now()).toISOString();
    out = {
      ...out,
      identities: out.identities.map((i) => (i.verifiedAt === undefined ? i : { ...i, verifiedAt: at })),
    };
  }
  if (ctx.quirks.omitVerifiedAt) out = { ...out, identities: out.identities.map(({ verifiedAt: _at, ...i }) => i) };
  return out;
});

/** POST /auth/v1/secure-info (spec 4.5). */
export const secureInfo = tokenEndpoint(secureInfoResult);
