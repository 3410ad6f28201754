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
 * Every form a value can take on the wire or in a service's echo of it: raw; URL-encoded and
 * form-encoded, once or twice (a proxy that re-encodes); JSON-escaped; HTML-escaped (`&amp;`,
 * `&lt;`, `&gt;`, `&quot;`, and `&#39;`, `&#x27;` or `&apos;`); hex; and base64 (standard,
 * unpadded and URL-safe). `redact` matches them in any letter case, so upper- and lower-case
 * percent escapes, hex digits and an upper- or lower-cased value are covered too.
 */
export function secretForms(value: string): string[] {
  const encoded = [encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const forms = new Set([
    value,
    ...encoded,
    ...encoded.map((e) => encodeURIComponent(e)),
    JSON.stringify(value).slice(1, -1),
    ...htmlEscaped(value),
    Buffer.from(value, 'utf8').toString('hex'),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
  ]);
  return [...forms].filter((form) => form !== '');
}

/** The value as HTML escapers write it; they differ only in how they write the apostrophe. */
function htmlEscaped(value: string): string[] {
  const base = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return ['&#39;', '&#x27;', '&apos;'].map((apostrophe) => base.replace(/'/g, apostrophe));
}

/** Replaces every occurrence of each secret form, then every query string, and truncates. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a form containing another is replaced whole. Any letter case: escapes
  // and hex digits come in both, and a server may fold the case of what it echoes (base64
  // matched case-insensitively masks more, never less).
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(escapeRegExp(secret), 'gi'), MASK);
  }
  out = out.replace(QUERY, `?${MASK}`);
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}...` : out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
