import { randomBytes } from 'node:crypto';
import { removeSessionValue, sessionOf, sessionValue, setSessionValue } from '../session/session.js';
import type { FlowStore } from '../stores/types.js';
import type { HttpRequest } from '../web/request.js';
import { passkeyRefusal } from './refusals.js';

/** What a challenge is for: a registration, or a sign-in. */
export type CeremonyKind = 'register' | 'login';

/** How long a challenge may wait for its answer: two minutes, the options' `timeout` and a margin. */
export const CHALLENGE_TTL_MS = 120_000;
/** The browser's own timeout of a ceremony (the options' `timeout`). */
export const CEREMONY_TIMEOUT_MS = 90_000;

const SESSION_KEY: Record<CeremonyKind, string> = {
  register: 'otplessPasskeyRegister',
  login: 'otplessPasskeyLogin',
};

/**
 * Keeps `challenge` for one answer of this session: in the store under a random id (so it can be
 * taken once only, even from a replayed cookie session), the id in this session only.
 */
export async function keepChallenge(
  store: FlowStore,
  req: HttpRequest,
  kind: CeremonyKind,
  challenge: string,
): Promise<void> {
  const session = sessionOf(req);
  if (!session) throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req);
  const id = randomBytes(16).toString('base64url');
  await store.create(challengeKey(id), JSON.stringify({ kind, challenge }), CHALLENGE_TTL_MS);
  setSessionValue(session, SESSION_KEY[kind], id);
}

/**
 * Takes this session's challenge of `kind`, once: a second answer, another session's, or one
 * after two minutes finds none and is refused (`PASSKEY_CHALLENGE_EXPIRED`).
 */
export async function takeChallenge(store: FlowStore, req: HttpRequest, kind: CeremonyKind): Promise<string> {
  const session = sessionOf(req);
  const id = sessionValue(session, SESSION_KEY[kind]);
  if (session) removeSessionValue(session, SESSION_KEY[kind]);
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(id)) throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req);
  const text = await store.take(challengeKey(id));
  const kept = text === undefined ? undefined : (JSON.parse(text) as { kind?: unknown; challenge?: unknown });
  if (!kept || kept.kind !== kind || typeof kept.challenge !== 'string') {
    throw passkeyRefusal('PASSKEY_CHALLENGE_EXPIRED', req);
  }
  return kept.challenge;
}

function challengeKey(id: string): string {
  return `passkey:challenge:${id}`;
}
