/**
 * A request's query, read the same way on every host: not Express's `req.query`, whose shape
 * depends on the app's `query parser` setting (Express 4's default turns `?code[a]=b` into an
 * object), and which plain Connect does not set at all. Everything after the first `?` is the
 * query: a code may itself hold a `?`.
 *
 * Read as `URLSearchParams` reads it. A query of printable ASCII without `%` or `+` (every link
 * the service sends) has nothing to decode, so it is split by hand: the same names and values,
 * without building a `URLSearchParams` on every callback.
 */
export type Query = string | URLSearchParams;

/** Printable ASCII but `%` and `+`: nothing `URLSearchParams` would decode or replace. */
const PLAIN = /^[!-$&-*,-~]*$/;

/** The query of a request URL (see `Query`). */
export function queryOf(url: string): Query {
  const at = url.indexOf('?');
  const text = at < 0 ? '' : url.slice(at + 1);
  // `URLSearchParams` drops one leading `?` of the text it is given.
  if (PLAIN.test(text)) return text.charCodeAt(0) === 0x3f ? text.slice(1) : text;
  return new URLSearchParams(text);
}

/** `name` in the query: its value, every value when it is repeated, `undefined` when absent. */
export function queryValue(query: Query, name: string): string | string[] | undefined {
  if (typeof query === 'string') return plainValue(query, name);
  const all = query.getAll(name);
  return all.length > 1 ? all : all[0];
}

/**
 * `name` in a plain query, as `queryValue` gives it: pairs end at `&`, a pair's name at its
 * first `=` (none: the empty value), empty pairs are skipped. Scanned in place; a list is made
 * only for a repeated name.
 */
function plainValue(query: string, name: string): string | string[] | undefined {
  let found: string | string[] | undefined;
  for (let start = 0; start < query.length;) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      let eq = query.indexOf('=', start);
      if (eq < 0 || eq > end) eq = end;
      if (eq - start === name.length && query.startsWith(name, start)) {
        const value = eq === end ? '' : query.slice(eq + 1, end);
        if (found === undefined) found = value;
        else if (typeof found === 'string') found = [found, value];
        else found.push(value);
      }
    }
    start = end + 1;
  }
  return found;
}
