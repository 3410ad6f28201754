import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ENDPOINTS, type EndpointDescriptor, type EndpointName, type ServiceHost } from '../wire/endpoints.js';
import type { EmulatorContext } from './context.js';
import { LINK_PREFIX, OUTBOX_PATH } from './devPaths.js';
import { ApiError, apiError, errorBody, ERRORS } from './errors.js';
import { faultAnswers } from './faults.js';
import { showInbox, showOutbox } from './handlers/dev.js';
import { openLink } from './handlers/link.js';
import { sendMagicLink } from './handlers/sendMagicLink.js';
import { sessionDetails } from './handlers/sessionDetails.js';
import { secureInfo, validateToken } from './handlers/tokenEndpoints.js';
import type { Handler } from './handlers/types.js';
import { userInfo } from './handlers/userInfo.js';
import { verifyCode } from './handlers/verifyCode.js';
import { sendJson, sendRaw } from './http.js';
import type { HostCheck } from './hosts.js';
import type { FaultSpec } from './types.js';

const HANDLERS: Readonly<Record<EndpointName, Handler>> = {
  sendMagicLink,
  verifyCode,
  userInfo,
  validateToken,
  secureInfo,
  sessionDetails,
};

const ENDPOINT_BY_PATH: ReadonlyMap<string, EndpointDescriptor> = new Map(
  Object.values(ENDPOINTS).map((endpoint) => [endpoint.path, endpoint]),
);

const HOST_NAMES: Readonly<Record<ServiceHost, string>> = { auth: 'auth', userAuth: 'user-auth' };

/** Sends the fault's answer, or destroys the socket; false when the fault was a pure delay. */
async function applyFault(
  ctx: EmulatorContext,
  fault: FaultSpec,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (fault.delayMs) await ctx.waits.wait(fault.delayMs);
  if (fault.reset) {
    req.socket.destroy();
    return true;
  }
  if (!faultAnswers(fault)) return false;
  const headers = Object.fromEntries(
    Object.entries(fault.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  // The service's own error, untouched: sent like any error, so the quirks apply to it.
  if (fault.error !== undefined && fault.status === undefined && fault.body === undefined) {
    answerError(ctx, res, new ApiError(ERRORS[fault.error].status, errorBody(fault.error), headers));
    return true;
  }
  const status = fault.status ?? (fault.error ? ERRORS[fault.error].status : ERRORS.fault.status);
  if (typeof fault.body === 'string') {
    sendRaw(res, status, fault.body, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  } else {
    sendJson(res, status, fault.body ?? errorBody(fault.error ?? 'fault'), headers);
  }
  return true;
}

/** Emulator-only pages and links, served on the auth host. */
function routeDev(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse, path: string, query: string): void {
  const isDevPath = path === '/' || path === OUTBOX_PATH || path.startsWith(LINK_PREFIX);
  if (!isDevPath) throw apiError('notFound');
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw apiError('methodNotAllowed', 'Emulator: use GET.', { allow: 'GET, HEAD' });
  if (path === '/') return showInbox(ctx, req, res);
  if (path === OUTBOX_PATH) return showOutbox(ctx, req, res);
  return openLink(ctx, req, res, path.slice(LINK_PREFIX.length), query);
}

async function route(
  ctx: EmulatorContext,
  host: ServiceHost,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);

  const fault = ctx.faults.take(path);
  if (fault && (await applyFault(ctx, fault, req, res))) return;

  const endpoint = ENDPOINT_BY_PATH.get(path);
  if (!endpoint) {
    if (host !== 'auth') throw apiError('notFound');
    return routeDev(ctx, req, res, path, query);
  }
  if (endpoint.host !== host) {
    throw apiError(
      'notFound',
      `Emulator: ${endpoint.name} is served on the ${HOST_NAMES[endpoint.host]} host, not on the ${HOST_NAMES[host]} host.`,
    );
  }
  if (req.method !== endpoint.method) {
    throw apiError('methodNotAllowed', `Emulator: use ${endpoint.method} for ${endpoint.path}.`, {
      allow: endpoint.method,
    });
  }
  if (ctx.baseDelayMs > 0) await ctx.waits.wait(ctx.baseDelayMs);
  await HANDLERS[endpoint.name](ctx, req, res, query);
}

/**
 * Sends an error (anything but an ApiError is the service's bare 500). Quirks:
 * `noErrorCodeOn401` drops errorCode from a 401 body; `errorWith200` sends the body with HTTP 200.
 */
function answerError(ctx: EmulatorContext, res: ServerResponse, error: unknown): void {
  // The client went away (aborted body, socket destroyed): nobody to answer.
  if (res.headersSent || res.destroyed) return;
  const { status, body, headers } =
    error instanceof ApiError ? error : { status: ERRORS.internal.status, body: errorBody('internal'), headers: {} };
  let sent = body;
  if (ctx.quirks.noErrorCodeOn401 && status === 401) {
    const { errorCode: _code, ...rest } = body;
    sent = rest;
  }
  sendJson(res, ctx.quirks.errorWith200 ? 200 : status, sent, headers);
}

/** The request listener of one host: refuses a foreign Host header before anything else. */
export function createRouter(ctx: EmulatorContext, host: ServiceHost, hosts: HostCheck): RequestListener {
  return (req, res) => {
    if (!hosts.allows(req.headers.host)) {
      const { status, ...body } = ERRORS.misdirected;
      sendJson(res, status, body, { connection: 'close' });
      return;
    }
    route(ctx, host, req, res).catch((error: unknown) => answerError(ctx, res, error));
  };
}
