import { randomBytes } from 'node:crypto';
import { requestCookie } from '../web/request.js';
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

/** The options of a ceremony, and the `Set-Cookie` that binds their challenge to this browser. */
export interface CeremonyStart {
  options: unknown;
  cookie: string;
}

/**
 * Keeps `challenge` for one answer of this browser: in the store under a random id (so it can be
 * taken once only), the id in a cookie of its own, sent to the passkey routes only. Not in the
 * session: the sign-in page asks for a challenge as it opens, and every session library saves
 * the whole session, so that save could land after a send's made at once and take the link's
 * pending send out of the session. Returns the `Set-Cookie` value.
 */
export async function keepChallenge(ctx: PasskeyContext, kind: CeremonyKind, challenge: string): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  await ctx.store.create(challengeKey(id), JSON.stringify({ kind, challenge }), CHALLENGE_TTL_MS);
  const secure = ctx.settings.origin.startsWith('https:') ? '; Secure' : '';
  return `${COOKIE[kind]}=${id}; Max-Age=${CHALLENGE_TTL_MS / 1000}; Path=${ctx.cookiePath}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * Takes this browser's challenge of `kind`, once: a second answer, another browser's, or one
 * after two minutes finds none and is refused (`PASSKEY_CHALLENGE_EXPIRED`).
 */
export async function takeChallenge(ctx: PasskeyContext, req: HttpRequest, kind: CeremonyKind): Promise<string> {
  const id = requestCookie(req, COOKIE[kind]);
  if (id === undefined || !ID.test(id)) throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req, ctx.locale);
  const text = await ctx.store.take(challengeKey(id));
  const kept = text === undefined ? undefined : (JSON.parse(text) as { kind?: unknown; challenge?: unknown });
  if (!kept || kept.kind !== kind || typeof kept.challenge !== 'string') {
    throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req, ctx.locale);
  }
  return kept.challenge;
}

function challengeKey(id: string): string {
  return `passkey:challenge:${id}`;
}
