import type { HttpRequest } from './request.js';

/**
 * True when a POST comes from a page of this site. A cross-site form could otherwise log a
 * victim in with the attacker's token (login CSRF). Browsers send `Origin` on every POST, and
 * `Sec-Fetch-Site` where they support it; a request with neither is refused (fail closed).
 * The origin may be the callback URL's, or the host the request itself was sent to.
 */
export function isSameOriginPost(req: HttpRequest, callbackURL: string): boolean {
  const fetchSite = header(req, 'sec-fetch-site');
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;

  const origin = header(req, 'origin');
  if (origin === undefined) return fetchSite === 'same-origin';
  // A page sent with `Referrer-Policy: no-referrer` makes the browser send `Origin: null` on its
  // own forms; `Sec-Fetch-Site` (which no page can set) then tells whether it was this site.
  if (origin === 'null') return fetchSite === 'same-origin';
  try {
    const from = new URL(origin);
    return from.origin === new URL(callbackURL).origin || from.host === header(req, 'host');
  } catch {
    return false;
  }
}

/**
 * True when a POST may come from another site. A browser names its origin on every POST
 * (`Origin`, and `Sec-Fetch-Site` where supported), so such a request must be same-origin. One
 * with neither is not a browser form: it is let through only with a JSON body, which a page on
 * another site cannot send without a CORS preflight.
 */
export function mayBeCrossSite(req: HttpRequest, callbackURL: string): boolean {
  if (isSameOriginPost(req, callbackURL)) return false;
  if (header(req, 'origin') !== undefined || header(req, 'sec-fetch-site') !== undefined) return true;
  return !/^application\/json\b/i.test(header(req, 'content-type') ?? '');
}

function header(req: HttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * True when `target` is a path on this site and nothing else. Open redirects hide in many
 * forms (`//evil.com`, `/\evil.com`, `https://evil.com`, control characters that browsers
 * strip), so the check accepts only a plain absolute path and confirms it by parsing.
 */
export function isSafeLocalPath(target: unknown): target is string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/') || target.startsWith('//')) return false;
  // Backslashes and control characters are normalised away by browsers into `//host`.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return false;
  try {
    const base = 'http://same-site.invalid';
    return new URL(target, base).origin === base;
  } catch {
    return false;
  }
}
