import { optionError, optionsObject } from '../options.js';
import { setSealSecrets } from '../session/sealedSignals.js';
import { linkReply } from './host.js';
import type { ReplyLike } from './host.js';

/** Options of `otplessFastify()`. */
export interface OtplessFastifyOptions {
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
  const secret =
    options === undefined ? undefined : optionsObject<OtplessFastifyOptions>(OWNER, options, 'an object').secret;
  const secrets = checkSecrets(secret);
  const plugin: OtplessFastifyPlugin = (app, _options, done) => {
    app.addHook('onRequest', (request, reply, next) => {
      linkReply(request, reply);
      if (secrets) setSealSecrets(request, secrets);
      next();
    });
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
