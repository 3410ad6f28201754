import { createHash } from 'node:crypto';
import { ownFields, requestCookie } from '../web/request.js';
import type { HttpRequest } from '../web/request.js';
import type { PasskeyContext } from './context.js';
import { passkeyRefusal } from './refusals.js';

/** What a challenge is for: a registration, or a sign-in. */
export type CeremonyKind = 'register' | 'login';

/** How long a challenge may wait for its answer: two minutes, the options' `timeout` and a margin. */
export const CHALLENGE_TTL_MS = 120_000;
/** The browser's own timeout of a ceremony (the options' `timeout`). */
export const CEREMONY_TIMEOUT_MS = 90_000;

/** The cookie that holds the id of a ceremony's challenge, by kind. */
const COOKIE: Record<CeremonyKind, string> = {
  register: 'otpless_passkey_register',
  login: 'otpless_passkey_login',
};

const ID = /^[A-Za-z0-9_-]{22}$/;
/** A challenge as the library makes it (base64url of 32 random bytes), with room to spare. */
const CHALLENGE = /^[A-Za-z0-9_-]{16,128}$/;
/**
 * At most this many challenges of one kind wait per browser: one per open tab of the page (each
 * asks for its own as it opens); an older one drops out of the cookie.
 */
const MAX_WAITING = 4;

/** The options of a ceremony, and the `Set-Cookie` that binds their challenge to this browser. */
export interface CeremonyStart {
  options: unknown;
  cookie: string;
}

/**
 * Keeps `challenge` for one answer of this browser: in the store under an id made from it (so it
 * can be taken once only), the id added to a cookie of its own, sent to the passkey routes only.
 * The cookie keeps the ids of this browser's newest `MAX_WAITING` challenges, so a second tab of
 * the page neither replaces the first's nor has its own taken by the first's answer. Not in the
 * session: the sign-in page asks for a challenge as it opens, and every session library saves
 * the whole session, so that save could land after a send's made at once and take the link's
 * pending send out of the session. Returns the `Set-Cookie` value.
 */
export async function keepChallenge(
  ctx: PasskeyContext,
  req: HttpRequest,
  kind: CeremonyKind,
  challenge: string,
): Promise<string> {
  const id = challengeId(challenge);
  await ctx.store.create(challengeKey(id), JSON.stringify({ kind, challenge }), CHALLENGE_TTL_MS);
  const ids = [id, ...waitingIds(req, kind).filter((earlier) => earlier !== id)].slice(0, MAX_WAITING);
  const secure = ctx.settings.origin.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE[kind]}=${ids.join('.')}; Max-Age=${CHALLENGE_TTL_MS / 1000}; Path=${ctx.cookiePath}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * Takes the challenge `body` (the browser's answer) was signed over, once, when it is one this
 * browser was given for `kind`: a second answer, another browser's, or one after two minutes finds
 * none and is refused (`PASSKEY_CHALLENGE_EXPIRED`). An answer that names no challenge is
 * `PASSKEY_INVALID` and spends none. The library then checks the answer against it.
 */
export async function takeChallenge(
  ctx: PasskeyContext,
  req: HttpRequest,
  kind: CeremonyKind,
  body: unknown,
): Promise<string> {
  const ids = waitingIds(req, kind);
  if (ids.length === 0) throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req, ctx.locale);
  const answered = answeredChallenge(body);
  if (answered === undefined) throw passkeyRefusal('PASSKEY_INVALID', req, ctx.locale);
  const id = challengeId(answered);
  const text = ids.includes(id) ? await ctx.store.take(challengeKey(id)) : undefined;
  const kept = text === undefined ? undefined : (JSON.parse(text) as { kind?: unknown; challenge?: unknown });
  if (!kept || kept.kind !== kind || kept.challenge !== answered) {
    throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req, ctx.locale);
  }
  return answered;
}

/** The ids of this browser's waiting challenges of `kind`, newest first (its cookie). */
function waitingIds(req: HttpRequest, kind: CeremonyKind): string[] {
  const value = requestCookie(req, COOKIE[kind]);
  if (value === undefined) return [];
  return value.split('.', MAX_WAITING).filter((id) => ID.test(id));
}

/**
 * The challenge an answer says it signed (`response.clientDataJSON`'s `challenge`), read only to
 * find which of this browser's challenges it answers: the library checks the rest.
 */
function answeredChallenge(body: unknown): string | undefined {
  const clientData = ownFields(ownFields(body).response).clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 4096) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { challenge } = ownFields(parsed);
  return typeof challenge === 'string' && CHALLENGE.test(challenge) ? challenge : undefined;
}

/** A challenge's id: a digest of it, so an answer names its own (22 characters, as the cookie holds). */
function challengeId(challenge: string): string {
  return createHash('sha256').update(`passkey challenge\0${challenge}`).digest('base64url').slice(0, 22);
}

function challengeKey(id: string): string {
  return `passkey:challenge:${id}`;
}
