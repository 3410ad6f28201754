import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * The parts of a request the strategy and the send middleware read. Express and Connect
 * requests both fit, so the package does not need Express's types to be installed.
 */
export interface HttpRequest extends IncomingMessage {
  headers: IncomingHttpHeaders;
  body?: unknown;
  query?: unknown;
  /** Typed loosely so any session middleware's type fits; read it through `sessionOf`. */
  session?: unknown;
  /** express-session puts its store here: its presence tells the session is server-side. */
  sessionStore?: unknown;
  res?: ServerResponse;
}

/** `next` as Express and Connect call it. */
export type NextFunction = (err?: unknown) => void;

/**
 * True unless the client asked for a page. Browsers name `text/html` in `Accept` on every
 * navigation and form post; API clients send `application/json`, `*\/*` (fetch, curl) or
 * nothing, and get JSON.
 */
export function wantsJson(req: IncomingMessage): boolean {
  const accept = String(req.headers.accept ?? '');
  if (/\bapplication\/json\b/i.test(accept)) return true;
  return !/\btext\/html\b/i.test(accept);
}

/** Answers a JSON body with the given status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Redirects with 303 (after a POST the browser follows with GET), without Express. */
export function redirectSeeOther(res: ServerResponse, location: string): void {
  res.statusCode = 303;
  res.setHeader('Location', location);
  res.setHeader('Content-Length', 0);
  res.end();
}
