/** The session as the package reads it, whatever session middleware the app uses. */

/** A session object as express-session and cookie-session (with `sessionCompat()`) give it. */
export interface SessionLike {
  [key: string]: unknown;
  regenerate?: (callback: (err?: unknown) => void) => void;
  save?: (callback?: (err?: unknown) => void) => void;
}

/** The request's session as an object, or `undefined` when no session middleware ran. */
export function sessionOf(req: { session?: unknown }): SessionLike | undefined {
  const session = req.session;
  return session && typeof session === 'object' ? (session as SessionLike) : undefined;
}

/**
 * A value of the session, read only when the session holds it: never one a polluted
 * `Object.prototype` lends. A session the library keeps as a Proxy over its data
 * (@fastify/secure-session) holds nothing as own properties: there a value counts unless it is
 * the very one a prototype holds under that name.
 */
export function sessionValue(session: SessionLike | undefined, key: string): unknown {
  if (!session) return undefined;
  if (Object.hasOwn(session, key)) return session[key];
  const value = session[key];
  if (value === undefined) return undefined;
  for (
    let proto = Object.getPrototypeOf(session) as object | null;
    proto;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    const lent = Object.getOwnPropertyDescriptor(proto, key);
    if (lent) return 'value' in lent && lent.value === value ? undefined : value;
  }
  return value;
}

/**
 * Writes one value of the session as a whole object, never by changing a stored object in
 * place: @fastify/secure-session notices only its own `set` (its session is a Proxy whose
 * property writes call it), and @fastify/session, express-session and cookie-session compare
 * what they load with what they save.
 */
export function setSessionValue(session: SessionLike, key: string, value: unknown): void {
  session[key] = value;
}

/**
 * Takes a value out of the session. @fastify/secure-session's Proxy has no `delete` trap, so
 * the value is first overwritten with `undefined` (dropped when the session is serialized),
 * then deleted where a plain object holds it.
 */
export function removeSessionValue(session: SessionLike, key: string): void {
  if (session[key] === undefined) return;
  session[key] = undefined;
  delete session[key];
}

/**
 * The id of a server-side session, which its store keys it by and its cookie signs: what the
 * package binds its session values to, so a writer of the store cannot move them into a
 * session whose cookie it holds. Read from the session library, never from the session's data:
 *
 * - express-session defines `id` on each session itself (not enumerable, not writable), from the
 *   signed cookie; a stored `id` is never copied over it. An enumerable `id` is data.
 * - @fastify/session gives it through its class's `sessionId` getter; it copies every stored
 *   field onto the session as data, so a stored `id` or `sessionId` is an own, enumerable value,
 *   which is not read.
 *
 * A cookie session (cookie-session, @fastify/secure-session) has none (its cookie is signed
 * whole) and binds to '', whatever fields its data holds.
 */
export function sessionIdOf(session: SessionLike): string {
  const own = Object.getOwnPropertyDescriptor(session, 'id');
  if (own && !own.enumerable && typeof own.value === 'string') return own.value;
  // An accessor the library's class defines (data can only make values, never getters).
  if (!Object.hasOwn(session, 'sessionId')) {
    for (
      let proto = Object.getPrototypeOf(session) as object | null;
      proto;
      proto = Object.getPrototypeOf(proto) as object | null
    ) {
      const found = Object.getOwnPropertyDescriptor(proto, 'sessionId');
      if (!found) continue;
      const id: unknown = found.get?.call(session);
      return typeof id === 'string' ? id : '';
    }
  }
  return '';
}
