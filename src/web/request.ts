import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { writeAnswer } from './host.js';

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
  /**
   * Express sets this. `| undefined` because Express types it `res?: Response | undefined`:
   * under `exactOptionalPropertyTypes` a bare `res?: ServerResponse` would refuse its requests.
   */
  res?: ServerResponse | undefined;
}

/**
 * The own fields of a parsed body (or any object read field by field), in an object with no
 * prototype: a field is read only when the body itself holds it, never through a polluted
 * `Object.prototype` (`Object.prototype.token = '...'` elsewhere in the app must not read as a
 * body's token). Anything but a plain object or array gives an empty one.
 */
export function ownFields(value: unknown): Record<string, unknown> {
  const fields = Object.create(null) as Record<string, unknown>;
  if (value === null || typeof value !== 'object') return fields;
  for (const key of Object.keys(value)) fields[key] = (value as Record<string, unknown>)[key];
  return fields;
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

/**
 * The request's media type alone, in lower case, without parameters (`charset=...`): so
 * `application/json-seq` is not `application/json`. '' when none is given.
 */
export function mediaType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

/** The value of the request's cookie `name` as sent (the first, if sent twice), or undefined. */
export function requestCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } as const;

/**
 * Answers a JSON body with the given status (through the host: see src/web/host.ts), and any
 * `headers` more (a passkey ceremony's cookie). Never stored by a cache: every answer is one
 * person's (a passkey challenge, a send's masked number).
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): void {
  writeAnswer(res, status, headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS, JSON.stringify(body));
}

/** Redirects with 303 (after a POST the browser follows with GET), without Express. */
export function redirectSeeOther(res: ServerResponse, location: string): void {
  writeAnswer(res, 303, { Location: location }, undefined);
}

/**
 * Redirects (303) to a path of this site with `error=<code>` (and `field=<field>`) added to its
 * query: where a refusal goes when the app shows it on a page of its own.
 */
export function redirectWithError(res: ServerResponse, path: string, code: string, field?: string): void {
  const target = new URL(path, 'http://same-site.invalid');
  target.searchParams.set('error', code);
  if (field) target.searchParams.set('field', field);
  redirectSeeOther(res, `${target.pathname}${target.search}`);
}
