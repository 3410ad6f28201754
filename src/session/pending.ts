import { createHash } from 'node:crypto';
import type { IdentityType } from '../wire/types.js';
import { labelledDigest, openJson, sealJson, sha256Base64url } from '../crypto.js';
import { rememberAtMost } from '../boundedMemo.js';
import { removeSessionValue, sessionIdOf, sessionValue, setSessionValue } from './session.js';
import type { SessionLike } from './session.js';
import { latestRecordKey, recordKeyById } from './recordKeys.js';
import type { RecordKey } from './recordKeys.js';

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
 *
 * The session never holds the flow id in clear: it is sealed (AES-256-GCM under a key from the
 * strategy's store secret) with the rest of the record and the session's id authenticated, so a
 * reader of sessions learns no flow id (nor can answer a flow's approval page), and a writer of
 * the session store can neither change a send nor copy one into a session whose cookie it
 * holds. A record that does not open reads as absent.
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
export const PENDING_VERSION = 3;

/** A pending send as the session keeps it: the flow id sealed in `f`, under the key named by `k`. */
interface StoredPending extends Omit<PendingRequest, 'flowId'> {
  k: string;
  f: string;
}

/** One send as stored, with its record opened. */
interface Entry {
  stored: StoredPending;
  open: PendingRequest;
}

/** Key of the pending list in `req.session`. */
export const PENDING_KEY = 'otplessPending';

/** At most this many sends are remembered per session; older ones drop out first. */
export const MAX_PENDING = 5;

/** Hashes a request id for storage in the session. */
export function hashRequestId(requestId: string): string {
  return sha256Base64url(requestId).slice(0, 22);
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
  return entriesOf(session).map((e) => e.open);
}

/** The session's live (not expired) pending requests; tolerates anything stored there. */
export function livePending(session: SessionLike | null | undefined, now: number): PendingRequest[] {
  return liveEntries(session, now).map((e) => e.open);
}

/** True when a live send of this session carries this flow id. */
export function hasPendingFlow(session: SessionLike | null | undefined, flowId: string, now: number): boolean {
  return liveEntries(session, now).some((e) => e.open.flowId === flowId);
}

/**
 * The live send of this session with this flow id, found in one read of the session (each
 * read opens every sealed send): `takeFoundPending` then takes it out without reading again.
 */
export interface FoundPending {
  readonly pending: PendingRequest;
  /** What the session keeps once it is taken: the other live sends, as stored. */
  readonly rest: readonly StoredPending[];
}

/** The live send with this flow id and the sends that stay beside it, or `undefined`. */
export function findPendingByFlow(
  session: SessionLike | null | undefined,
  flowId: string,
  now: number,
): FoundPending | undefined {
  // One loop, no closures or copies in between: this runs on every link login.
  let found: Entry | undefined;
  const rest: StoredPending[] = [];
  for (const e of liveEntries(session, now)) {
    if (found === undefined && e.open.flowId === flowId) found = e;
    else rest.push(e.stored);
  }
  return found ? { pending: found.open, rest } : undefined;
}

/**
 * Takes a send `findPendingByFlow` found out of the session, which must not have changed since
 * (no await between the two): the other live sends stay.
 */
export function takeFoundPending(session: SessionLike, found: FoundPending): PendingRequest {
  if (found.rest.length > 0) setSessionValue(session, PENDING_KEY, [...found.rest]);
  else removeSessionValue(session, PENDING_KEY);
  return found.pending;
}

/**
 * Remembers one send in the session, keeping the newest `MAX_PENDING` live ones. `key`: the
 * strategy's record key (`StoreSecrets.recordKey`); without it, that of the strategy built last.
 */
export function rememberPending(
  session: SessionLike,
  send: {
    flowId: string;
    requestIds: ReadonlyArray<{ type: IdentityType; value: string }>;
    destinations: readonly string[];
    expiresAt: number;
  },
  now: number,
  key: RecordKey | undefined = latestRecordKey(),
): void {
  if (!key)
    throw new Error('passport-otpless: no MagicLinkStrategy was built in this process, so no key to seal a send with');
  const entry: StoredPending = {
    version: PENDING_VERSION,
    requestIdHashes: [...new Set(send.requestIds.map((r) => hashRequestId(r.value)))],
    destinationHashes: send.destinations.map((d) => hashDestination(d, key.key)),
    expiresAt: send.expiresAt,
    k: key.id,
    f: '',
  };
  entry.f = sealJson(key.key, send.flowId, contextOf(session, entry));
  const kept = liveEntries(session, now).map((e) => e.stored);
  setSessionValue(session, PENDING_KEY, [...kept, entry].slice(-MAX_PENDING));
}

/**
 * Adds the request ids of one more send of the same flow (the waiting page's "send by SMS
 * instead") to the live send of this session with that flow id: the link of either send then
 * binds to it. False when the session holds no live send of that flow.
 */
export function addRequestIdsToPending(
  session: SessionLike,
  flowId: string,
  requestIds: ReadonlyArray<{ value: string }>,
  now: number,
): boolean {
  const live = liveEntries(session, now);
  const found = live.find((e) => e.open.flowId === flowId);
  const key = found && recordKeyById(found.stored.k);
  if (!found || !key) return false;
  const hashes = [...new Set([...found.stored.requestIdHashes, ...requestIds.map((r) => hashRequestId(r.value))])];
  // Object.assign: a spread followed by members makes a new hidden class per call on Node 20 (recordBinding.ts).
  const entry: StoredPending = Object.assign({}, found.stored, { requestIdHashes: hashes, f: '' });
  entry.f = sealJson(key.key, flowId, contextOf(session, entry));
  setSessionValue(
    session,
    PENDING_KEY,
    live.map((e) => (e === found ? entry : e.stored)),
  );
  return true;
}

/**
 * Takes the sends whose link has expired out of the session, and anything stored under the
 * key that this code cannot read; the live ones stay. Nothing reads an expired send again
 * (every check asks for live ones), so it is only weight in the session store. The session is
 * written only when something was taken out. True when no send is left.
 */
export function dropExpiredPending(session: SessionLike | null | undefined, now: number): boolean {
  const list = sessionValue(session ?? undefined, PENDING_KEY);
  if (!session || list === undefined) return true;
  const live = liveEntries(session, now).map((e) => e.stored);
  if (Array.isArray(list) && live.length === list.length) return live.length === 0;
  if (live.length > 0) setSessionValue(session, PENDING_KEY, live);
  else removeSessionValue(session, PENDING_KEY);
  return live.length === 0;
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
  const live = liveEntries(session, now);
  const found = live.find((e) => match(e.open));
  if (!found) return undefined;
  const rest = live.filter((e) => e !== found).map((e) => e.stored);
  if (rest.length > 0) setSessionValue(session, PENDING_KEY, rest);
  else removeSessionValue(session, PENDING_KEY);
  return found.open;
}

function liveEntries(session: SessionLike | null | undefined, now: number): Entry[] {
  return entriesOf(session).filter((e) => e.open.expiresAt > now);
}

/** The session's sends of this version that open under a key of this process, for this session. */
function entriesOf(session: SessionLike | null | undefined): Entry[] {
  const list = sessionValue(session ?? undefined, PENDING_KEY);
  if (!session || !Array.isArray(list)) return [];
  const entries: Entry[] = [];
  for (const item of list) {
    const open = openEntry(session, item);
    if (open) entries.push({ stored: item as StoredPending, open });
  }
  return entries;
}

function openEntry(session: SessionLike, item: unknown): PendingRequest | undefined {
  const p = item as Partial<StoredPending> | null;
  if (!p || typeof p !== 'object' || p.version !== PENDING_VERSION) return undefined;
  if (!Array.isArray(p.requestIdHashes) || !Array.isArray(p.destinationHashes) || typeof p.expiresAt !== 'number') {
    return undefined;
  }
  const key = recordKeyById(p.k);
  if (!key || typeof p.f !== 'string') return undefined;
  const context = contextOf(session, p as StoredPending);
  const known = OPENED.get(p.f);
  const flowId = known?.context === context ? known.flowId : openJson(key.key, p.f, context);
  if (typeof flowId !== 'string') return undefined;
  // Opening costs more than the rest of a callback's bookkeeping, and a callback reads the list several times.
  // Stryker disable next-line all: a memo; its mutants change only how often a send is opened
  if (known?.context !== context) rememberAtMost(OPENED, p.f, { context, flowId }, MAX_OPENED);
  return {
    version: PENDING_VERSION,
    flowId,
    requestIdHashes: p.requestIdHashes,
    destinationHashes: p.destinationHashes,
    expiresAt: p.expiresAt,
  };
}

/**
 * What the sealed flow id is bound to: the session's id and every other field, so none of them
 * can change, and the record cannot move to another session, without the seal failing.
 */
function contextOf(session: SessionLike, p: Omit<StoredPending, 'f'>): string {
  return JSON.stringify([
    'pending send',
    p.k,
    sessionIdOf(session),
    p.requestIdHashes,
    p.destinationHashes,
    p.expiresAt,
  ]);
}

/** Flow ids opened, by sealed text, with the context they opened under (GCM authenticated both). */
const OPENED = new Map<string, { context: string; flowId: string }>();
const MAX_OPENED = 1_000;
