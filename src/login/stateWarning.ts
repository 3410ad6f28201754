import { warnOnce } from '../errors/warnings.js';
import type { HttpRequest } from '../web/request.js';
import type { LoginSetup } from './compose.js';

/** Setups whose first request has been looked at for shared sessions. */
const stateChecked = new WeakSet<LoginSetup>();

/**
 * A session store in this process's memory: express-session's MemoryStore, or @fastify/session's
 * default `Store` (a class named `Store` keeping sessions in a Map under `store`).
 */
function isMemorySessionStore(store: object): boolean {
  return store.constructor?.name === 'MemoryStore' || (store as { store?: unknown }).store instanceof Map;
}

/**
 * Sessions in a shared store (express-session with a store other than its MemoryStore) say
 * the app runs on several instances; flows and used tokens in this process's memory would
 * then not be seen by the others. Told once, at the first request.
 */
export function warnIfStateInMemory(setup: LoginSetup, req: HttpRequest): void {
  if (stateChecked.has(setup)) return;
  stateChecked.add(setup);
  const sessionStore = (req as { sessionStore?: object }).sessionStore;
  if (setup.sharedState || !sessionStore || isMemorySessionStore(sessionStore)) return;
  warnOnce(
    'OTPLESS_STATE_IN_MEMORY',
    'passport-otpless: sessions are in a shared store but sign-in flows, used tokens and send limits are in ' +
      "this process's memory: other instances will not see them. Give the strategy your Redis client: " +
      'new MagicLinkStrategy({ ..., store: redisClient }).',
  );
}
