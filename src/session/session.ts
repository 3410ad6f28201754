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
