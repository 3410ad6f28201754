/**
 * True when `target` is a path on this site and nothing else, so redirecting to it cannot send
 * the visitor away (an open redirect). Open redirects hide in many forms (`//evil.com`,
 * `/\evil.com`, `https://evil.com`, control characters that browsers strip, dot segments such as
 * `/.//evil.com` or `/%2e//evil.com` that resolve to `//evil.com`), so this accepts only a plain
 * absolute path without dot segments and confirms it by parsing.
 * @param {unknown} target
 * @returns {target is string}
 */
export function isSafeLocalPath(target) {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/') || target.startsWith('//')) return false;
  // Backslashes and control characters are normalised away by browsers into `//host`.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return false;
  const path = target.split(/[?#]/, 1)[0] ?? '';
  if (path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return false;
  try {
    const base = 'http://same-site.invalid';
    const resolved = new URL(target, base);
    return resolved.origin === base && !resolved.pathname.startsWith('//');
  } catch {
    return false;
  }
}
