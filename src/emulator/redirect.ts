function paramName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * `redirectUri` with `code` in its query: every other parameter is kept byte for byte (a
 * URLSearchParams round trip would re-encode them), any existing `code` is replaced, and the
 * fragment is kept.
 */
export function withCode(redirectUri: string, code: string): string {
  const url = new URL(redirectUri);
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && paramName(pair) !== 'code');
  kept.push(`code=${encodeURIComponent(code)}`);
  url.search = `?${kept.join('&')}`;
  return url.href;
}

/**
 * `redirectUri` with its query string and fragment dropped and only `code` in the query: how a
 * service that rebuilds the URL from scheme, host and path would redirect (the
 * `stripRedirectQuery` quirk).
 */
export function withCodeOnly(redirectUri: string, code: string): string {
  const url = new URL(redirectUri);
  return `${url.origin}${url.pathname}?code=${encodeURIComponent(code)}`;
}
