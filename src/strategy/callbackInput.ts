import type { HttpRequest } from '../web/request.js';
import { ownFields } from '../web/request.js';
import { queryOf, queryValue } from '../web/query.js';
import type { CallbackFailureCode } from '../errors/callbackCodes.js';
import { FLOW_PARAM } from '../flow/handoff.js';
import { isFlowId } from '../flow/seal.js';

/**
 * What the callback was given: a code from the link (with the flow id the link brought back,
 * unless the service dropped it), a frontend-SDK token, a session token of the service's
 * sessions, nothing (the asking browser finishing a
 * cross-device flow), or something unusable.
 */
export type CallbackInput =
  | { kind: 'code'; code: string; flowId: string | undefined }
  | { kind: 'token'; token: string }
  | { kind: 'sessionToken'; sessionToken: string }
  | { kind: 'none' }
  | { kind: 'invalid'; failure: CallbackFailureCode };

/** Codes and tokens are opaque printable ASCII; anything else is refused before any call. */
const OPAQUE = /^[\x21-\x7e]+$/;
const MAX_CODE_LENGTH = 512;
const MAX_TOKEN_LENGTH = 4096;

/**
 * Reads `code` (and `flow`) from the query (GET) or the body then the query (POST; `flow` from the
 * query then the body), or a frontend-SDK
 * `token` from a POST body. Repeated parameters (`?code=a&code=b`), arrays, objects and
 * oversized values are refused: which one the caller meant cannot be known.
 */
export function readCallbackInput(req: HttpRequest): CallbackInput {
  const query = queryOf(String(req.url));
  // Whatever a body parser left (or `undefined` without one): a member of anything but an object
  // reads as `undefined`.
  // Own fields only: a polluted Object.prototype.token is no token.
  const body = ownFields(req.body);
  const isPost = req.method === 'POST';

  const token = isPost ? body.token : undefined;
  const code = isPost ? (body.code ?? queryValue(query, 'code')) : queryValue(query, 'code');
  // A session token comes alone, in a POST body only (never in a URL, where logs keep it).
  const sessionToken = isPost ? body.sessionToken : undefined;
  if (sessionToken !== undefined) {
    if (token !== undefined || code !== undefined || !isOpaque(sessionToken, MAX_TOKEN_LENGTH)) {
      return { kind: 'invalid', failure: 'INVALID_CODE' };
    }
    return { kind: 'sessionToken', sessionToken };
  }

  if (token !== undefined && code === undefined) {
    return isOpaque(token, MAX_TOKEN_LENGTH) ? { kind: 'token', token } : { kind: 'invalid', failure: 'INVALID_CODE' };
  }
  if (token !== undefined) return { kind: 'invalid', failure: 'INVALID_CODE' };
  if (code === undefined) return { kind: 'none' };
  if (!isOpaque(code, MAX_CODE_LENGTH)) return { kind: 'invalid', failure: 'INVALID_CODE' };
  // A single-page app posts what its page read from the link: the flow with the code.
  const flow = queryValue(query, FLOW_PARAM) ?? (isPost ? body[FLOW_PARAM] : undefined);
  if (flow === undefined) return { kind: 'code', code, flowId: undefined };
  return isFlowId(flow) ? { kind: 'code', code, flowId: flow } : { kind: 'invalid', failure: 'INVALID_CODE' };
}

/** A non-empty string of opaque characters (OPAQUE's `+` refuses the empty one) within `maxLength`. */
function isOpaque(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength && OPAQUE.test(value);
}
