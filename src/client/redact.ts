/**
 * Removal of secrets from text that came from outside (low-level error messages, the service's
 * error bodies) before it reaches an error message or `cause`.
 */

const MASK = '[redacted]';
/** A query string may carry `client_secret` (authorize): drop every query string wholesale. */
const QUERY = /\?[^\s"'<>]*/g;
/** The shortest value whose upper- and lower-cased forms are masked too. */
const MIN_FOLDED = 8;
/** Service text is shown to developers, not stored: keep it short. */
const MAX_TEXT = 300;

/**
 * Every form a value can take on the wire or in a service's echo of it: raw; URL-encoded and
 * form-encoded, once or twice (a proxy that re-encodes); JSON-escaped; HTML-escaped (`&amp;`,
 * `&lt;`, `&gt;`, `&quot;`, and `&#39;`, `&#x27;` or `&apos;`); hex; and base64 (standard,
 * unpadded and URL-safe). Letter case: the value upper- and lower-cased, percent escapes and hex
 * digits in both cases (as servers and proxies write either); values of 8 characters or more
 * also upper- and lower-cased. Matched exactly, so a short code such as `c` does not mask
 * every `C` of a message.
 */
export function secretForms(value: string): string[] {
  const once = [encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const encoded = [...once, ...once.map(lowerCaseEscapes)];
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const hex = Buffer.from(value, 'utf8').toString('hex');
  const forms = new Set([
    value,
    // Case-folded only when long: a folded short value (a test's code `c`) would mask words.
    ...(value.length >= MIN_FOLDED ? [value.toUpperCase(), value.toLowerCase()] : []),
    ...encoded,
    ...encoded.map((e) => encodeURIComponent(e)),
    JSON.stringify(value).slice(1, -1),
    ...htmlEscaped(value),
    hex,
    hex.toUpperCase(),
    base64,
    base64.replace(/=+$/, ''),
    Buffer.from(value, 'utf8').toString('base64url'),
    ...embeddedBase64(value),
  ]);
  return [...forms].filter((form) => form !== '');
}

/** Shorter cores than this would mask ordinary words of a message. */
const MIN_CORE = 8;

/**
 * The value inside a longer base64 string (`client_secret=...&code=...` encoded whole): its
 * characters depend on where the value starts modulo 3 bytes, so for each of the three starts
 * the run of characters made of the value's bytes alone, standard and URL-safe. The one or two
 * characters at each edge also carry a neighbour's bits and stay.
 */
function embeddedBase64(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole <= 0) continue;
    const core = bytes.subarray(skip, skip + whole);
    const text = core.toString('base64');
    if (text.length < MIN_CORE) continue;
    cores.push(text, core.toString('base64url'));
  }
  return cores;
}

/** The value as HTML escapers write it; they differ only in how they write the apostrophe. */
function htmlEscaped(value: string): string[] {
  const base = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  // Numeric entities are read back before matching (`unescapeEchoes`): `&#39;` is `'` by then.
  return [base, ...['&#39;', '&#x27;', '&apos;'].map((apostrophe) => base.replace(/'/g, apostrophe))];
}

/** Replaces every occurrence of each secret form, then every query string, and truncates. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = unescapeEchoes(text);
  // Longest first, so a form containing another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
  }
  out = out.replace(QUERY, `?${MASK}`);
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}...` : out;
}

/**
 * The text with the escapes a server may write any character in read back: JSON's `\/` and
 * `\uXXXX` (PHP's `json_encode` writes `/` as `\/`, and its `JSON_HEX_*` flags `<>&'"` as
 * `\u003C`...), and numeric HTML entities (`&#47;`, `&#x2F;`), in any mix and case. What is left
 * is matched against the forms of each secret.
 */
function unescapeEchoes(text: string): string {
  return text
    .replace(/\\\//g, '/')
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/&#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}));/g, (m, hex?: string, dec?: string) => {
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
      return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    });
}

/** `%2F` -> `%2f`: the same bytes, as some servers and proxies write them. */
function lowerCaseEscapes(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
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
