import type { IncomingMessage, ServerResponse } from 'node:http';
import { setupOf } from '../login/compose.js';
import { optionError } from '../options.js';
import type { OptionTable } from '../options/table.js';
import { linkResponse, writeAnswer } from '../web/host.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { NOT_JSON } from './body.js';
import type { PassportRunner } from './callbackRoute.js';
import { createLoginRoutes, LOGIN_ROUTES_OPTIONS } from './loginRoutes.js';
import type { LoginRoutes, LoginRoutesOptions } from './loginRoutes.js';
import { pathOf } from './paths.js';

/**
 * Passport as the mount calls it: `import passport from 'passport'` (or a `new Passport()`),
 * typed structurally so the package needs no Passport types.
 */
export interface PassportLike {
  authenticate(
    strategy: string,
    callback: (err: unknown, user?: unknown, info?: unknown, status?: unknown) => void,
  ): (req: never, res: never, next: never) => unknown;
}

/** Options of `magicLinkRoutes()`: the app's Passport, and the mount's own options. */
export interface MagicLinkRoutesOptions extends LoginRoutesOptions {
  /** The app's Passport, with the strategy registered (`passport.use(strategy)`). */
  passport: PassportLike;
}

/** Every option of `magicLinkRoutes()`: the mount's, and `passport` (checked by `createMount`). */
export const MAGIC_LINK_ROUTES_OPTIONS = {
  passport: {
    defaultDoc: 'required',
    doc: "the app's Passport (`import passport from 'passport'`, or a `new Passport()`), with the strategy registered",
  },
  ...LOGIN_ROUTES_OPTIONS,
} satisfies OptionTable<MagicLinkRoutesOptions>;

/** What `magicLinkRoutes()` returns: Express and Connect middleware. */
export type MagicLinkRoutesMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

const OWNER = 'magicLinkRoutes()';

/**
 * Every route of the login in one middleware, for Express 4 and 5 and Connect: the sign-in page,
 * the send, the waiting page, the status, and the callback (GET for the link, POST for the
 * approval and confirm forms and JSON clients), at paths beside `callbackUrl`'s. Bodies are read
 * here (forms and JSON), so the app needs no body parser for these routes; redirects and pages
 * are written by the package, so Connect needs no `res.redirect`.
 *
 * @example
 * passport.use(strategy);
 * app.use(session({ secret, resave: false, saveUninitialized: false }), passport.session());
 * app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));
 * // GET /auth/sign-in, POST /auth/magic-link, GET /auth/waiting, GET /auth/status, GET|POST /auth/callback
 */
export function magicLinkRoutes(strategy: object, options: MagicLinkRoutesOptions): MagicLinkRoutesMiddleware {
  return createMount(OWNER, strategy, options).middleware;
}

/** The routes of the one mount and the middleware that serves them, for a host's own wiring. */
export interface Mount {
  routes: LoginRoutes;
  middleware: MagicLinkRoutesMiddleware;
  /** Registered after `middleware` where the host parses bodies first (NestJS on Express). */
  bodyErrors: MountBodyErrors;
}

/**
 * `magicLinkRoutes()` under another name (`owner`, in option errors): every option checked, the
 * routes built, Passport run as Express and Connect run it. The NestJS module mounts the same.
 */
export function createMount(owner: string, strategy: object, options: MagicLinkRoutesOptions): Mount {
  const setup = setupOf(owner, strategy);
  if (typeof options !== 'object' || options === null) {
    throw optionError(
      owner,
      'options',
      'an object with passport (the app\'s Passport: import passport from "passport")',
    );
  }
  const { passport, ...rest } = options;
  if (typeof passport !== 'object' || passport === null || typeof passport.authenticate !== 'function') {
    throw optionError(
      owner,
      'passport',
      "the app's Passport, with the strategy registered: import passport from 'passport'",
    );
  }
  const runner: PassportRunner = {
    authenticate(req, res, next, done) {
      const handler = passport.authenticate(setup.name, (err, user, info, status) => done({ err, user, info, status }));
      (handler as unknown as (req: HttpRequest, res: ServerResponse, next: NextFunction) => void)(req, res, next);
    },
    logIn(req, user) {
      const logIn = (req as { logIn?: (user: unknown, done: (err?: unknown) => void) => void }).logIn;
      return new Promise((resolve, reject) => {
        logIn!.call(req, user, (err) => (err ? reject(err as Error) : resolve()));
      });
    },
  };
  const routes = createLoginRoutes(owner, setup, runner, rest);
  const middleware: MagicLinkRoutesMiddleware = function magicLinkRoutes(req, res, next) {
    const handle = routeFor(routes, pathOf(req as HttpRequest & { originalUrl?: unknown }), req.method);
    if (handle === undefined) return next();
    // Connect sets no `req.res`: the strategy's pages find the response through this link.
    linkResponse(req, res);
    if (handle === 'method') return methodNotAllowed(res, allowed(routes, pathOf(req)));
    handle(req as HttpRequest, res, next);
  };
  const bodyErrors: MountBodyErrors = (err, req, res, next) => {
    // A JSON body the host's parser (body-parser, as NestJS registers it) could not read, sent
    // to a route of the mount: answered by that route, 400 INVALID_INPUT as on every host.
    if (!isJsonParseError(err) || typeof routeFor(routes, pathOf(req as HttpRequest), req.method) !== 'function')
      return next(err);
    (req as HttpRequest).body = NOT_JSON;
    middleware(req, res, next);
  };
  return { routes, middleware, bodyErrors };
}

/** An error-handling middleware for the mount's routes (Express's four arguments). */
export type MountBodyErrors = (
  err: unknown,
  req: Parameters<MagicLinkRoutesMiddleware>[0],
  res: Parameters<MagicLinkRoutesMiddleware>[1],
  next: Parameters<MagicLinkRoutesMiddleware>[2],
) => void;

/** body-parser's error for a body that is not JSON (`express.json()`, NestJS's parser). */
function isJsonParseError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed';
}

type Handler = (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;

/** The route for a path and method; 'method' when the path is the mount's but not the method. */
export function routeFor(
  routes: LoginRoutes,
  path: string,
  method: string | undefined,
): Handler | 'method' | undefined {
  const { paths } = routes;
  const passkey = routes.passkey?.route(path, method);
  if (passkey !== undefined) return passkey;
  const read = method === 'GET' || method === 'HEAD';
  // Only GET, HEAD and POST reach the callback: every other method would skip the POST checks.
  if (path === paths.callback) return read || method === 'POST' ? routes.callback : 'method';
  if (path === paths.send) return method === 'POST' ? routes.send : 'method';
  if (path === paths.status) return read ? routes.status : 'method';
  if (path === paths.waiting) return read ? routes.waiting : 'method';
  if (path === paths.signIn && !routes.ownSignIn) return read ? routes.signIn : 'method';
  return undefined;
}

/** The methods a path of the mount answers, for `Allow`. */
export function allowed(routes: LoginRoutes, path: string): string {
  const passkey = routes.passkey?.allowed(path);
  if (passkey !== undefined) return passkey;
  if (path === routes.paths.callback) return 'GET, HEAD, POST';
  return path === routes.paths.send ? 'POST' : 'GET, HEAD';
}

/** 405 with the methods the path answers. */
export function methodNotAllowed(res: ServerResponse, allow: string): void {
  writeAnswer(res, 405, { Allow: allow, 'Content-Type': 'text/plain; charset=utf-8' }, 'Method Not Allowed');
}
