/**
 * Removal of secrets from text that came from outside (low-level error messages, the service's
 * error bodies) before it reaches an error message or `cause`.
 */

const MASK = '[redacted]';
/** A query string may carry `client_secret` (authorize): drop every query string wholesale. */
const QUERY = /\?[^\s"'<>]*/g;
/** Service text is shown to developers, not stored: keep it short. */
const MAX_TEXT = 300;

/**
 * Every form a value can take on the wire or in a service's echo of it: raw, URL-encoded and
 * form-encoded (each with upper- and lower-case percent escapes, as servers re-encode either
 * way), JSON-escaped, and base64 (standard, unpadded and URL-safe).
 */
export function secretForms(value: string): string[] {
  const encoded = [encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const forms = new Set([
    value,
    ...encoded,
    ...encoded.map(lowerCaseEscapes),
    JSON.stringify(value).slice(1, -1),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ]);
  return [...forms].filter((form) => form !== '');
}

/** `%2F` -> `%2f`: the same bytes, as some servers and proxies write them. */
function lowerCaseEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/** Replaces every occurrence of each secret form, then every query string, and truncates. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a form containing another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  out = out.replace(QUERY, `?${MASK}`);
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}...` : out;
}

/**
 * A stand-in for a low-level error (e.g. from undici) safe to attach as `cause`: its name,
 * code and redacted message, and no stack frames from the original.
 */
export function sanitizedCause(err: unknown, secrets: readonly string[]): Error {
  const source = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
  };
  const cause = new Error(redact(typeof source.message === 'string' ? source.message : '', secrets));
  const name = typeof source.name === 'string' ? redact(source.name, secrets) : 'Error';
  Object.defineProperty(cause, 'name', { value: name, writable: true, configurable: true });
  if (typeof source.code === 'string') (cause as Error & { code?: string }).code = redact(source.code, secrets);
  cause.stack = `${name}: ${cause.message}`;
  return cause;
}
