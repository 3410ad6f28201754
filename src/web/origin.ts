import type { TLSSocket } from 'node:tls';
import type { HttpRequest } from './request.js';

/**
 * True when a POST comes from a page of this site. A cross-site form could otherwise log a
 * victim in with the attacker's token (login CSRF). Browsers send `Origin` on every POST, and
 * `Sec-Fetch-Site` where they support it; a request with neither is refused (fail closed).
 *
 * The origin must be the callback URL's, or the request's own origin: scheme, host and port,
 * never the host alone, since a page on `http://host` is another origin than `https://host`
 * (anyone on the network can serve the former). See `ownOrigin` for where the scheme comes from.
 */
export function isSameOriginPost(req: HttpRequest, callbackUrl: string): boolean {
  const fetchSite = header(req, 'sec-fetch-site');
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;

  const origin = header(req, 'origin');
  if (origin === undefined) return fetchSite === 'same-origin';
  // A page sent with `Referrer-Policy: no-referrer` makes the browser send `Origin: null` on its
  // own forms; `Sec-Fetch-Site` (which no page can set) then tells whether it was this site.
  if (origin === 'null') return fetchSite === 'same-origin';
  try {
    const from = new URL(origin).origin;
    const callback = new URL(callbackUrl);
    return from === callback.origin || from === ownOrigin(req, callback.protocol);
  } catch {
    return false;
  }
}

/**
 * The origin the request was sent to, or `undefined`. Its scheme comes from configuration, never
 * from a plain socket that may sit behind a TLS-terminating proxy (where it would say `http` for
 * a site served over `https`, and let a page on `http://host` pass):
 * - when the app set Express's `trust proxy`, from `req.protocol` (which then honours the
 *   proxy's `X-Forwarded-Proto`);
 * - else `https` on a TLS socket, and the callback URL's scheme otherwise.
 * A header alone never decides it.
 */
function ownOrigin(req: HttpRequest, callbackProtocol: string): string | undefined {
  const host = header(req, 'host');
  if (host === undefined) return undefined;
  const protocol: unknown = (req as HttpRequest & { protocol?: unknown }).protocol;
  const trusted = trustsProxy(req) && (protocol === 'http' || protocol === 'https');
  // `encrypted` is true on a TLS socket and absent on a plain one; `callbackProtocol` is `http:` or `https:`.
  const scheme = trusted ? protocol : (req.socket as TLSSocket).encrypted ? 'https' : callbackProtocol.slice(0, -1);
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * True when a POST may come from another site. A browser names its origin on every POST
 * (`Origin`, and `Sec-Fetch-Site` where supported), so such a request must be same-origin. One
 * with neither is not a browser form: it is let through only with a JSON body, which a page on
 * another site cannot send without a CORS preflight.
 */
export function mayBeCrossSite(req: HttpRequest, callbackUrl: string): boolean {
  if (isSameOriginPost(req, callbackUrl)) return false;
  if (header(req, 'origin') !== undefined || header(req, 'sec-fetch-site') !== undefined) return true;
  return !/^application\/json\b/i.test(header(req, 'content-type') ?? '');
}

/** Whether the app set Express's `trust proxy` (its default is `false`; Connect and others have none). */
function trustsProxy(req: HttpRequest): boolean {
  const app = (req as { app?: { get?: (name: string) => unknown } }).app;
  if (typeof app?.get !== 'function') return false;
  const setting = app.get('trust proxy');
  return setting !== undefined && setting !== false && setting !== 0;
}

function header(req: HttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * True when `target` is a path on this site and nothing else. Open redirects hide in many
 * forms (`//evil.com`, `/\evil.com`, `https://evil.com`, control characters that browsers
 * strip, dot segments such as `/.//evil.com` or `/%2e//evil.com` that resolve to `//evil.com`),
 * so the check accepts only a plain absolute path without dot segments, in the characters a URL
 * holds as they are (others percent-encoded: `/caf%C3%A9`, not `/café`), and confirms it by parsing.
 */
export function isSafeLocalPath(target: unknown): target is string {
  // The empty string fails `startsWith('/')`.
  if (typeof target !== 'string' || target.length > 2048) return false;
  if (!target.startsWith('/') || target.startsWith('//')) return false;
  // Backslashes and control characters are normalised away by browsers into `//host`.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return false;
  // Only what a URL may hold as it is (RFC 3986), other characters percent-encoded: `/café`
  // would go out as a raw byte in `Location`, and `/〱google.com` makes Node refuse the header
  // (ERR_INVALID_CHAR) on every redirect to it.
  if (!URL_CHARACTERS.test(target)) return false;
  // `.` and `..` segments (also percent-encoded, as URL parsers decode them) can resolve to a
  // path that starts with `//`: whoever redirects to the resolved form sends the browser away.
  const path = target.split(/[?#]/, 1)[0] ?? '';
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment))) return false;
  try {
    const base = 'http://same-site.invalid';
    const resolved = new URL(target, base);
    return resolved.origin === base && !resolved.pathname.startsWith('//');
  } catch {
    return false;
  }
}

/** RFC 3986's path, query and fragment characters, and well-formed percent escapes. */
const URL_CHARACTERS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/;

/** A segment URL parsers treat as `.` or `..`. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
