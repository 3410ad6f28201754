import { optionError } from '../options.js';
import { isSafeLocalPath } from '../web/origin.js';

/** Where the one mount answers: every path absolute on this site. */
export interface LoginPaths {
  /** The sign-in page (GET). Default `<base>/sign-in`. */
  signIn: string;
  /** The send (POST). Default `<base>/magic-link`. */
  send: string;
  /** The waiting page (GET). Default `<base>/waiting`. */
  waiting: string;
  /** The status as JSON (GET). Default `<base>/status`. */
  status: string;
  /** The callback: `callbackUrl`'s own path (GET for the link, POST for forms and JSON clients). */
  callback: string;
}

export const PATH_NAMES: readonly (keyof LoginPaths)[] = ['signIn', 'send', 'waiting', 'status', 'callback'];

/**
 * The mount's paths: `callbackUrl`'s path for the callback, its siblings for the rest
 * (`https://app.example.com/auth/callback` gives `/auth/sign-in`, `/auth/magic-link`,
 * `/auth/waiting`, `/auth/status`), each replaceable. The callback's path cannot be changed
 * here: the service sends the link to `callbackUrl`.
 */
export function loginPaths(owner: string, callbackUrl: string, given: Partial<LoginPaths> | undefined): LoginPaths {
  const callback = new URL(callbackUrl).pathname;
  const base = callback.slice(0, callback.lastIndexOf('/'));
  const paths: LoginPaths = {
    signIn: `${base}/sign-in`,
    send: `${base}/magic-link`,
    waiting: `${base}/waiting`,
    status: `${base}/status`,
    callback,
  };
  if (given === undefined) return paths;
  if (typeof given !== 'object' || given === null) throw optionError(owner, 'paths', 'an object of paths');
  for (const name of Object.keys(given)) {
    if (!(PATH_NAMES as readonly string[]).includes(name) || name === 'callback') {
      throw optionError(owner, `paths.${name}`, `one of ${PATH_NAMES.filter((n) => n !== 'callback').join(', ')}`);
    }
    const value = (given as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (!isSafeLocalPath(value) || /[?#]/.test(value)) {
      throw optionError(owner, `paths.${name}`, "a path on this site without a query, such as '/login'");
    }
    paths[name as keyof LoginPaths] = value;
  }
  const taken = new Set<string>();
  for (const name of PATH_NAMES) {
    if (taken.has(paths[name])) throw optionError(owner, `paths.${name}`, 'a path no other route of the mount has');
    taken.add(paths[name]);
  }
  return paths;
}

/** The path of a request, as the app was asked for it (`originalUrl` under a mounted router). */
export function pathOf(req: { url?: string | undefined; originalUrl?: unknown }): string {
  const url = typeof req.originalUrl === 'string' ? req.originalUrl : (req.url ?? '/');
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}
