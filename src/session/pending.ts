import { createHash } from 'node:crypto';
import { labelledDigest } from '../crypto.js';
import type { IdentityType } from '../wire/types.js';
import { removeSessionValue, setSessionValue } from './session.js';
import type { SessionLike } from './session.js';

/**
 * Binding of a magic link to the browser session that asked for it.
 *
 * `send()` remembers each send in the session with the flow id it put in the link's
 * `redirect_uri`; the callback finds the send by that id before anything is verified, and takes
 * it out of the session before it compares (so a send serves one login only, like OAuth's
 * `state`). A callback that binds to nothing leaves the other sends alone. Request ids are
 * stored as short hashes: the session (a cookie with cookie-session) never holds a value the
 * service would recognise.
 *
 * Each record carries its shape's version: a record of another version (0.1 wrote one-letter
 * fields and none) is treated as absent, never misread, and the person asks for a new link.
 */
export interface PendingRequest {
  /** The shape's version: `PENDING_VERSION`. */
  version: typeof PENDING_VERSION;
  /** The flow id of the send: the binding nonce the link brings back. */
  flowId: string;
  /** Hashes of the service's request ids of the send (one per channel, or one shared). */
  requestIdHashes: string[];
  /**
   * Hashes of the destinations the link was sent to (E.164 number, e-mail in lower case): an
   * identity the service reports without `verified` counts as verified only when the send went to
   * exactly one destination and it is that one (src/strategy/profile.ts `onlyDestination`).
   */
  destinationHashes: string[];
  /** Epoch ms after which the link has expired. */
  expiresAt: number;
}

/** The version of the pending-send records this code writes and reads. */
export const PENDING_VERSION = 2;

/** Key of the pending list in `req.session`. */
export const PENDING_KEY = 'otplessPending';

/** At most this many sends are remembered per session; older ones drop out first. */
export const MAX_PENDING = 5;

/** Hashes a request id for storage in the session. */
export function hashRequestId(requestId: string): string {
  return createHash('sha256').update(requestId).digest('base64url').slice(0, 22);
}

/**
 * Hashes a destination (E.164 number or e-mail address, compared in lower case) for the session.
 * With `key` (derived from the strategy's store secret, the same on every instance) it is a
 * keyed digest, HMAC-SHA256: a reader of the session store cannot test a guessed number or
 * address against it (an unkeyed hash of a 10^6-number range is recovered in seconds). Without
 * it, the unkeyed SHA-256 of earlier versions.
 */
export function hashDestination(value: string, key?: Buffer): string {
  const text = value.toLowerCase();
  if (key !== undefined) return labelledDigest(key, 'pending destination', text);
  return createHash('sha256').update(`destination\0${text}`).digest('base64url').slice(0, 22);
}

/** Every well-formed pending request of the session, expired ones included, oldest first. */
export function allPending(session: SessionLike | null | undefined): PendingRequest[] {
  const list = session?.[PENDING_KEY];
  if (!Array.isArray(list)) return [];
  return list.filter(
    (p): p is PendingRequest =>
      !!p &&
      typeof p === 'object' &&
      p.version === PENDING_VERSION &&
      typeof p.flowId === 'string' &&
      Array.isArray(p.requestIdHashes) &&
      Array.isArray(p.destinationHashes) &&
      typeof p.expiresAt === 'number',
  );
}

/** The session's live (not expired) pending requests; tolerates anything stored there. */
export function livePending(session: SessionLike | null | undefined, now: number): PendingRequest[] {
  return allPending(session).filter((p) => p.expiresAt > now);
}

/** Remembers one send in the session, keeping the newest `MAX_PENDING` live ones. */
export function rememberPending(
  session: SessionLike,
  send: {
    flowId: string;
    requestIds: ReadonlyArray<{ type: IdentityType; value: string }>;
    destinations: readonly string[];
    expiresAt: number;
  },
  now: number,
  destinationKey?: Buffer,
): void {
  const entry: PendingRequest = {
    version: PENDING_VERSION,
    flowId: send.flowId,
    requestIdHashes: [...new Set(send.requestIds.map((r) => hashRequestId(r.value)))],
    destinationHashes: send.destinations.map((d) => hashDestination(d, destinationKey)),
    expiresAt: send.expiresAt,
  };
  setSessionValue(session, PENDING_KEY, [...livePending(session, now), entry].slice(-MAX_PENDING));
}

/** Takes the live send with this flow id out of the session; the others stay. */
export function takePendingByFlow(
  session: SessionLike | null | undefined,
  flowId: string,
  now: number,
): PendingRequest | undefined {
  return takeWhere(session, now, (p) => p.flowId === flowId);
}

/** Takes the live send that got this request id out of the session; the others stay. */
export function takePendingByRequestId(
  session: SessionLike | null | undefined,
  requestId: string,
  now: number,
): PendingRequest | undefined {
  const wanted = hashRequestId(requestId);
  return takeWhere(session, now, (p) => p.requestIdHashes.includes(wanted));
}

/** True when a live send still in this session (the bound one already taken out) got this request id. */
export function otherPendingHas(session: SessionLike | null | undefined, requestId: string, now: number): boolean {
  const wanted = hashRequestId(requestId);
  return livePending(session, now).some((p) => p.requestIdHashes.includes(wanted));
}

function takeWhere(
  session: SessionLike | null | undefined,
  now: number,
  match: (p: PendingRequest) => boolean,
): PendingRequest | undefined {
  if (!session) return undefined;
  const live = livePending(session, now);
  const found = live.find(match);
  if (!found) return undefined;
  const rest = live.filter((p) => p !== found);
  if (rest.length > 0) setSessionValue(session, PENDING_KEY, rest);
  else removeSessionValue(session, PENDING_KEY);
  return found;
}
