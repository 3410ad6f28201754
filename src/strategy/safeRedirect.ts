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
