import { createHash } from 'node:crypto';
import type { IdentityType } from '../wire/types.js';
import type { SessionLike } from './session.js';

/**
 * Binding of a magic link to the browser session that asked for it.
 *
 * `send()` remembers each pending request in the session; the callback consumes all of them
 * before it compares (so a pending request can serve one login only, like OAuth's `state`).
 * Request ids are stored as short hashes: the session (a cookie with cookie-session) never
 * holds a value that the service would recognise.
 */
export interface PendingRequest {
  /** Hashes of the request ids of one send (one per channel). */
  h: string[];
  /** Channel types of the send, for display. */
  t: IdentityType[];
  /** Epoch ms after which the link has expired. */
  exp: number;
}

/** Key of the pending list in `req.session`. */
export const PENDING_KEY = 'otplessPending';

/** At most this many sends are remembered per session; older ones drop out first. */
export const MAX_PENDING = 5;

/** Hashes a request id for storage in the session. */
export function hashRequestId(requestId: string): string {
  return createHash('sha256').update(requestId).digest('base64url').slice(0, 22);
}

/** The session's live (not expired) pending requests; tolerates anything stored there. */
export function livePending(session: SessionLike | null | undefined, now: number): PendingRequest[] {
  const list = session?.[PENDING_KEY];
  if (!Array.isArray(list)) return [];
  return list.filter(
    (p): p is PendingRequest =>
      !!p && typeof p === 'object' && Array.isArray(p.h) && typeof p.exp === 'number' && p.exp > now,
  );
}

/** Remembers one send in the session, keeping the newest `MAX_PENDING` live ones. */
export function rememberPending(
  session: SessionLike,
  requestIds: ReadonlyArray<{ type: IdentityType; value: string }>,
  expiresAt: number,
  now: number,
): void {
  const entry: PendingRequest = {
    h: requestIds.map((r) => hashRequestId(r.value)),
    t: requestIds.map((r) => r.type),
    exp: expiresAt,
  };
  session[PENDING_KEY] = [...livePending(session, now), entry].slice(-MAX_PENDING);
}

/**
 * Takes every pending request out of the session, then tells whether `requestId` was one of
 * the live ones. Removing first means a pending request is used at most once, whatever the
 * outcome of the comparison.
 */
export function consumePending(session: SessionLike | null | undefined, requestId: string, now: number): boolean {
  if (!session) return false;
  const live = livePending(session, now);
  delete session[PENDING_KEY];
  const wanted = hashRequestId(requestId);
  return live.some((p) => p.h.includes(wanted));
}
