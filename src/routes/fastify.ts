import { setupOf } from '../login/compose.js';
import { optionError, optionsObject, refuseUnknownOptions } from '../options.js';
import { setSealSecrets } from '../session/sealedSignals.js';
import { linkReply, nodeArgs, replyOf } from '../web/host.js';
import type { ReplyLike } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import { parseFormBody, parseJsonBody } from './body.js';
import type { PassportResult, PassportRunner } from './callbackRoute.js';
import { createLoginRoutes } from './loginRoutes.js';
import type { LoginRoutes, LoginRoutesOptions } from './loginRoutes.js';
import { allowed, methodNotAllowed, routeFor } from './mount.js';
import { pathOf } from './paths.js';

/** @fastify/passport's `Authenticator`, as the plugin calls it (typed structurally). */
export interface FastifyPassportLike {
  authenticate(
    strategy: string,
    callback: FastifyPassportCallback,
  ): (this: never, request: never, reply: never) => unknown;
}

/**
 * @fastify/passport's custom callback. Declared as a method (the "bivariance" form) so that
 * @fastify/passport's own richer callback types accept it.
 */
export type FastifyPassportCallback = {
  callback(
    request: unknown,
    reply: unknown,
    err: unknown,
    user?: unknown,
    info?: unknown,
    status?: number,
  ): Promise<void>;
}['callback'];

/** Options of `otplessFastify()`. */
export interface OtplessFastifyOptions extends LoginRoutesOptions {
  /**
   * The strategy whose routes the plugin registers (the sign-in, send, waiting, status and
   * callback routes of `magicLinkRoutes()`); with `passport`. Leave both out to mount the
   * routes one by one.
   */
  strategy?: object;
  /** @fastify/passport's `Authenticator`, with the strategy registered; with `strategy`. */
  passport?: FastifyPassportLike;
  /**
   * The secret that encrypts the login's risk signals in a cookie session (a list, newest
   * first: the first encrypts, each one decrypts), as `sessionCompat({ secret })` does for
   * cookie-session. Needed with @fastify/secure-session when logins carry risk signals; not
   * with @fastify/session, whose sessions live on the server.
   */
  secret?: string | string[];
}

/** The part of a Fastify instance the plugin uses (typed structurally: Fastify is not a dependency). */
export interface FastifyHooks {
  addHook(name: 'onRequest', hook: (request: object, reply: ReplyLike, done: () => void) => void): unknown;
  // `never` where Fastify's own types are richer: the plugin only hands these back to Fastify.
  route(options: { method: string | string[]; url: string; handler: (request: never, reply: never) => void }): unknown;
  register(plugin: (child: FastifyHooks, options: unknown, done: (err?: Error) => void) => void): unknown;
  hasContentTypeParser(type: string): boolean;
  removeContentTypeParser(type: string): unknown;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'string'; bodyLimit: number },
    parser: (request: unknown, body: string, done: (err: Error | null, body?: unknown) => void) => void,
  ): unknown;
}

/** A Fastify plugin, as `app.register()` takes it. */
export type OtplessFastifyPlugin = (app: FastifyHooks, options: unknown, done: (err?: Error) => void) => void;

const OWNER = 'otplessFastify()';

/**
 * The Fastify plugin of the package: register it once, before the routes. It lets the strategy
 * reach the reply that @fastify/passport does not hand it (for the approval page, the confirm
 * page and the no-store headers of the callback), so every answer goes through `reply.send`
 * and the session plugins' `onSend` hooks write the cookie; and it hands the strategy and the
 * guards the secret to seal risk signals with in a cookie session.
 *
 * Its hook applies to the whole app (like a plugin wrapped in fastify-plugin).
 *
 * @example
 * await app.register(fastifySecureSession, { key, cookie: { path: '/' } });
 * await app.register(fastifyPassport.initialize());
 * await app.register(fastifyPassport.secureSession());
 * await app.register(otplessFastify({ secret: process.env.SIGNALS_SECRET }));
 * app.post('/auth/magic-link', strategy.send());
 */
export function otplessFastify(options?: OtplessFastifyOptions): OtplessFastifyPlugin {
  const given = options === undefined ? {} : optionsObject<OtplessFastifyOptions>(OWNER, options, 'an object');
  const { secret, strategy, passport, ...mount } = given;
  refuseUnknownOptions(OWNER, { secret, strategy, passport }, ['secret', 'strategy', 'passport']);
  const secrets = checkSecrets(secret);
  const register = routesOf(strategy, passport, mount);
  const plugin: OtplessFastifyPlugin = (app, _options, done) => {
    app.addHook('onRequest', (request, reply, next) => {
      linkReply(request, reply);
      if (secrets) setSealSecrets(request, secrets);
      next();
    });
    // The routes in a context of their own, so their form parser is theirs alone.
    if (register) app.register(register);
    done();
  };
  // fastify-plugin's marks, without the dependency: not encapsulated, and a name in errors.
  Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: 'passport-otpless',
  });
  return plugin;
}

function checkSecrets(secret: unknown): readonly string[] | undefined {
  if (secret === undefined) return undefined;
  const list = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw optionError(OWNER, 'secret', 'a non-empty string, or a non-empty array of them (newest first)');
  }
  return Object.freeze([...(list as string[])]);
}

/**
 * The plugin that registers the mount's routes on Fastify, or `undefined` without a strategy.
 * Every answer goes through the reply (the session plugins write their cookie in `onSend`).
 */
function routesOf(
  strategy: object | undefined,
  passport: FastifyPassportLike | undefined,
  mount: LoginRoutesOptions,
): ((child: FastifyHooks, options: unknown, done: (err?: Error) => void) => void) | undefined {
  if (strategy === undefined && passport === undefined) {
    if (Object.keys(mount).length > 0) throw optionError(OWNER, 'strategy', "given with the routes' options");
    return undefined;
  }
  const setup = setupOf(OWNER, strategy);
  if (typeof passport !== 'object' || passport === null || typeof passport.authenticate !== 'function') {
    throw optionError(OWNER, 'passport', "@fastify/passport's Authenticator, with the strategy registered");
  }
  // One route handler of @fastify/passport for every request (as a `preValidation` is built
  // once), not one built per callback; the request carries where its result goes.
  const hook = passport.authenticate(setup.name, async (request, _reply, err, user, info, status) =>
    (request as WithDone)[DONE]?.({ err, user, info, status }),
  ) as unknown as (request: unknown, reply: unknown) => Promise<unknown>;
  const runner: PassportRunner = {
    authenticate(req, res, next, done) {
      (req as WithDone)[DONE] = done;
      hook(req, replyOf(res)).catch(next);
    },
    logIn(req, user) {
      return (req as unknown as { logIn(user: unknown): Promise<void> }).logIn(user);
    },
  };
  return fastifyRoutes(createLoginRoutes(OWNER, setup, runner, mount));
}

/** Methods a route of the mount answers 405 to, beside those it serves. */
const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Fastify's default body limit, kept for the routes' JSON parser. */
const FASTIFY_BODY_LIMIT = 1024 * 1024;

/** Where a callback request keeps the mount's handler of Passport's result. */
const DONE = Symbol('passport-otpless.passport-done');

interface WithDone {
  [DONE]?: (result: PassportResult) => void;
}

/**
 * A Fastify plugin registering the mount's routes, each answered through the reply; the routes
 * get a form parser of their own when the app has none.
 */
export function fastifyRoutes(
  routes: LoginRoutes,
): (child: FastifyHooks, options: unknown, done: (err?: Error) => void) => void {
  const { paths } = routes;
  return (child, _options, done) => {
    if (!child.hasContentTypeParser('application/x-www-form-urlencoded')) {
      child.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_request, body, parsed) => parsed(null, parseFormBody(body)),
      );
    }
    // The routes' own JSON parser (in their context only): a body that is not JSON reaches the
    // route, which answers it as on every host (400 INVALID_INPUT), not in Fastify's words.
    // Fastify's own limit (1 MiB): the route holds the body to the mount's 16 KiB itself.
    if (child.hasContentTypeParser('application/json')) child.removeContentTypeParser('application/json');
    child.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: FASTIFY_BODY_LIMIT },
      (_request, body, parsed) => parsed(null, parseJsonBody(body)),
    );
    const urls = [
      paths.callback,
      paths.send,
      paths.status,
      paths.waiting,
      ...(routes.ownSignIn ? [] : [paths.signIn]),
      ...(routes.passkey ? Object.values(routes.passkey.paths) : []),
    ];
    for (const url of urls) {
      const answers = allowed(routes, url);
      // The other usual methods too, so a wrong one is 405 with `Allow` (as on Express and
      // Connect), not Fastify's 404. OPTIONS stays the app's (a CORS plug-in answers it).
      const methods = [...new Set([...answers.split(', '), ...OTHER_METHODS])];
      child.route({
        method: methods,
        url,
        handler(request: HttpRequest, reply: ReplyLike) {
          const [req, res, next] = nodeArgs(request, reply);
          const handle = routeFor(routes, pathOf(req), req.method);
          if (typeof handle === 'function') handle(req, res, next);
          else methodNotAllowed(res, answers);
        },
      });
    }
    done();
  };
}
