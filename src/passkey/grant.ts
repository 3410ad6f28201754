import { randomBytes } from 'node:crypto';
import { readLoginRecord } from '../session/loginRecord.js';
import { removeSessionValue, sessionOf, sessionValue, setSessionValue } from '../session/session.js';
import type { FlowStore } from '../stores/types.js';
import type { HttpRequest } from '../web/request.js';
import type { PasskeyCredential } from './credentials.js';
import { passkeyRefusal } from './refusals.js';

/**
 * What a fresh, verified link login allows: registering a passkey for that login's user, in
 * that session, within the offer window. Kept in the store (the identities stay out of a cookie
 * session), its random id in the session, bound to the login record the login wrote.
 */
export interface RegistrationGrant {
  /** The profile id of the user the link login verified. */
  userId: string;
  identities: PasskeyCredential['identities'];
  /** The login record's binding (`b`): the grant counts only beside that same record. */
  record: string;
}

const SESSION_KEY = 'otplessPasskeyGrant';

/** Writes the grant of the login that just finished in this session; lasts `windowMs`. */
export async function grantRegistration(store: FlowStore, req: HttpRequest, windowMs: number): Promise<boolean> {
  const session = sessionOf(req);
  const record = readLoginRecord(req);
  const verified = linkLogins.get(req);
  // Only a link login by this browser: not a service session's token, not a passkey login.
  if (!session || !record || record.via !== undefined || !verified || verified.id !== record.id) return false;
  const id = randomBytes(16).toString('base64url');
  const grant: RegistrationGrant = { userId: record.id, identities: verified.identities, record: record.b };
  await store.create(grantKey(id), JSON.stringify(grant), windowMs);
  setSessionValue(session, SESSION_KEY, id);
  return true;
}

/**
 * The grant of this session, when it is still good: written within the window, in this session,
 * beside the same login record (same user, same session). Else `PASSKEY_NOT_ALLOWED`: a passkey
 * attached to an identity this browser did not just verify would be a takeover.
 */
export async function readGrant(store: FlowStore, req: HttpRequest, take = false): Promise<RegistrationGrant> {
  const session = sessionOf(req);
  const id = sessionValue(session, SESSION_KEY);
  const record = readLoginRecord(req);
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(id) || !record)
    throw passkeyRefusal('PASSKEY_NOT_ALLOWED', req);
  const text = take ? await store.take(grantKey(id)) : await store.get(grantKey(id));
  if (take && session) removeSessionValue(session, SESSION_KEY);
  const grant = text === undefined ? undefined : (JSON.parse(text) as RegistrationGrant);
  if (!grant || grant.record !== record.b || grant.userId !== record.id)
    throw passkeyRefusal('PASSKEY_NOT_ALLOWED', req);
  return grant;
}

/** Drops this session's grant ("Not now"). */
export async function dropGrant(store: FlowStore, req: HttpRequest): Promise<void> {
  const session = sessionOf(req);
  const id = sessionValue(session, SESSION_KEY);
  if (!session || typeof id !== 'string') return;
  removeSessionValue(session, SESSION_KEY);
  await store.take(grantKey(id));
}

/** True while this session holds a grant id (the offer page checks the store too). */
export function hasGrant(req: HttpRequest): boolean {
  return typeof sessionValue(sessionOf(req), SESSION_KEY) === 'string';
}

function grantKey(id: string): string {
  return `passkey:grant:${id}`;
}

/** What a link login verified, by request: the strategy tells it here, the mount reads it after Passport's logIn. */
export interface VerifiedLink {
  id: string;
  identities: RegistrationGrant['identities'];
}

const linkLogins = new WeakMap<object, VerifiedLink>();

/**
 * Called by the strategy once a link login went through (`finishLogin`): what it verified, for
 * the offer the mount may make on this same request. Kept only as long as the request.
 */
export function rememberLinkLogin(
  req: object,
  profile: { id: string; identities: ReadonlyArray<{ type: 'MOBILE' | 'EMAIL'; value: string; verified: boolean }> },
): void {
  const identities = profile.identities.filter((i) => i.verified).map((i) => ({ type: i.type, value: i.value }));
  linkLogins.set(req, { id: profile.id, identities });
}
