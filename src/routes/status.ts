import type { FlowStatus } from '../flow/handoff.js';
import type { LoginSetup } from '../login/compose.js';
import { allPending, dropExpiredPending } from '../session/pending.js';
import { sessionOf } from '../session/session.js';
import { nodeArgs } from '../web/host.js';
import type { HostArgs, HostHandler } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import { sendJson } from '../web/request.js';
import { forgetWaiting } from './waitingRecord.js';
import { watchSessionResent } from './warnings.js';

/** The body of `strategy.status()`. */
export interface FlowStatusBody {
  status: FlowStatus;
  /** The number to show, while the flow waits for approval. */
  match?: string;
  /** When the link expires (ISO 8601). */
  expiresAt?: string;
}

/** Where this session's latest cross-device flow stands (see `MagicLinkStrategy.flowStatus`). */
export async function flowStatusOf(settings: LoginSetup, req: HttpRequest): Promise<FlowStatusBody> {
  const session = sessionOf(req);
  const latest = allPending(session).at(-1);
  if (!latest) return { status: 'none' };
  const now = Date.now();
  const expiresAt = new Date(latest.expiresAt).toISOString();
  if (latest.expiresAt <= now) {
    // Said once: the page stops asking, and the session keeps nothing of a link no one can use
    // (the waiting record stays, sealed, for "send a new link": routes/waitingRecord.ts).
    dropExpiredPending(session, now);
    return settings.handoff ? { status: 'expired', expiresAt } : { status: 'none' };
  }
  if (!settings.handoff) return { status: 'none' };
  const { status, record } = await settings.handoff.status(latest.flowId, now);
  // Denied for good: the waiting page's record (where the link went, what to send again) has
  // served; the send stays for the callback, which answers FLOW_DENIED and takes it out.
  if (status === 'denied') forgetWaiting(req);
  if (status !== 'pending' || !record) return { status, expiresAt };
  return { status, match: settings.handoff.numberOf(latest.flowId), expiresAt };
}

/** The status route: `flowStatusOf` as JSON, never cached (see `MagicLinkStrategy.status`). */
export function createStatusRoute(settings: LoginSetup): HostHandler<HttpRequest> {
  return (...given: HostArgs<HttpRequest>) => {
    const [req, res, next] = nodeArgs(...given);
    // sendJson says `Cache-Control: no-store`, as every JSON answer of the package.
    flowStatusOf(settings, req).then((body) => {
      watchSessionResent(req, res);
      sendJson(res, 200, body);
    }, next);
  };
}
