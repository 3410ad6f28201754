import type { ServerResponse } from 'node:http';
import type { OtplessClient } from '../client/index.js';
import { OtplessSetupError } from '../errors/index.js';
import { composeLogin, LOGIN_SETUP } from '../login/compose.js';
import type { LoginSetup } from '../login/compose.js';
import { warnIfStateInMemory } from '../login/stateWarning.js';
import { createSendMiddleware } from '../routes/send.js';
import type { SendMiddleware, SendOptions } from '../routes/send.js';
import { createStatusRoute, flowStatusOf } from '../routes/status.js';
import type { FlowStatusBody } from '../routes/status.js';
import { answered, isFastifyRequest, responseOf, setHeader } from '../web/host.js';
import type { HostHandler } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import { CallbackAttempt } from './attempt.js';
import { isClientError, serviceFailure } from '../login/failures.js';
import type { MagicLinkStrategyOptions } from '../login/options.js';
import { PassportStrategyBase } from './passportBase.js';
import type { VerifyFunction, VerifyFunctionWithRequest } from './verify.js';

export type { FlowStatusBody } from '../routes/status.js';

/** Passport's options that make it call `res.redirect`. */
function asksPassportRedirect(options: unknown): boolean {
  if (!options || typeof options !== 'object') return false;
  const o = options as Record<string, unknown>;
  return Boolean(o.successRedirect || o.failureRedirect || o.successReturnToOrRedirect);
}

function hasRedirect(res: ServerResponse | undefined): boolean {
  return typeof (res as { redirect?: unknown } | undefined)?.redirect === 'function';
}

/**
 * Passport strategy for OTPless magic links. It does Passport's job: on the callback route it
 * reads what the link (or a frontend-SDK token) brought, verifies it with the service, binds it
 * to the browser that asked, builds a `MagicLinkProfile`, hands it to `verify`, and logs in.
 *
 * The routes around it (send, status, sign-in and waiting pages) are mounted in one call by
 * `magicLinkRoutes()`; `send()`, `status()` and `flowStatus()` are the same routes one by one.
 *
 * @example
 * const strategy = new MagicLinkStrategy(
 *   { clientId, clientSecret, callbackUrl: 'https://app.example.com/auth/callback' },
 *   async (profile) => users.findOrCreate(profile.id),
 * );
 * passport.use(strategy);
 * app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/' }));
 */
export class MagicLinkStrategy extends PassportStrategyBase {
  /** The name to give `passport.authenticate()`: 'magic-link' unless `options.name` says otherwise. */
  readonly name: string;
  /** The client the strategy calls the service with. */
  readonly client: OtplessClient;
  declare private readonly [LOGIN_SETUP]: LoginSetup;
  private readonly verify: VerifyFunction | VerifyFunctionWithRequest;

  // Passport adds these to a per-request copy of the strategy before `authenticate` runs.
  // Shaped to fit @types/passport-strategy's `Strategy`: `fail` takes a challenge and a status.
  declare success: (user: object, info?: object) => void;
  declare fail: { (challenge: object | string | undefined, status: number): void; (status: number): void };
  declare error: (err: unknown) => void;
  declare redirect: (url: string, status?: number) => void;
  declare pass: () => void;

  constructor(options: MagicLinkStrategyOptions & { passReqToCallback: true }, verify: VerifyFunctionWithRequest);
  constructor(options: MagicLinkStrategyOptions & { passReqToCallback?: false }, verify: VerifyFunction);
  constructor(options: MagicLinkStrategyOptions, verify: VerifyFunction | VerifyFunctionWithRequest) {
    if (typeof verify !== 'function')
      throw new TypeError('MagicLinkStrategy: the second argument must be a verify function');
    super();
    const setup = composeLogin(options);
    // Not enumerable: the setup holds the client and the secrets' keys, which no log of the strategy shows.
    Object.defineProperty(this, LOGIN_SETUP, { value: setup });
    this.name = setup.name;
    this.client = setup.client;
    this.verify = verify;
  }

  /**
   * The send route on its own (`magicLinkRoutes()` mounts it for you): Express or Connect
   * middleware, or a Fastify handler, that sends a magic link to `email` and/or `mobile` from
   * the parsed body. See `SendOptions` for field names, redirects and error handling.
   *
   * @example
   * app.post('/auth/magic-link', express.json(), strategy.send());
   */
  send(options: SendOptions = {}): SendMiddleware {
    const setup = this[LOGIN_SETUP];
    const send = createSendMiddleware(setup, options) as (...given: unknown[]) => void;
    // Either host's arguments: the first is the request (a Fastify one has no sessionStore to look at).
    return ((...given: unknown[]) => {
      warnIfStateInMemory(setup, given[0] as HttpRequest);
      send(...given);
    }) as SendMiddleware;
  }

  /**
   * The status route on its own (`magicLinkRoutes()` mounts it for you), answering JSON for this
   * session's latest link: `{ status: 'none'|'pending'|'approved'|'denied'|'expired', match?, expiresAt? }`.
   *
   * @example
   * app.get('/auth/status', strategy.status());
   */
  status(): HostHandler<HttpRequest> {
    return createStatusRoute(this[LOGIN_SETUP]);
  }

  /**
   * Where this session's latest cross-device flow stands, for a page rendered on the server.
   *
   * @example
   * const { status, match } = await strategy.flowStatus(req);
   */
  flowStatus(req: HttpRequest): Promise<FlowStatusBody> {
    return flowStatusOf(this[LOGIN_SETUP], req);
  }

  /** Called by Passport on the callback route; every path ends in one Passport action or a page. */
  authenticate(req: HttpRequest, options?: unknown): void {
    const setup = this[LOGIN_SETUP];
    warnIfStateInMemory(setup, req);
    const res = responseOf(req);
    const fastify = isFastifyRequest(req);
    // On Fastify the reply is reached only through otplessFastify(): without it the callback
    // could neither keep its code out of caches nor answer the approval or confirm page.
    if (!res && fastify) return this.error(OtplessSetupError.missingFastifyPlugin());
    // Passport answers its redirect options with res.redirect, which only Express has: on
    // Connect the login would happen and then crash. Refused before anything is spent.
    if (!fastify && !hasRedirect(res) && asksPassportRedirect(options)) {
      return this.error(OtplessSetupError.redirectWithoutExpress());
    }
    if (res && !answered(res)) {
      // The URL carries a one-time code: keep it out of caches and out of Referer headers.
      setHeader(res, 'Cache-Control', 'no-store');
      setHeader(res, 'Referrer-Policy', 'no-referrer');
    }
    // Passport runs each attempt on a copy of the strategy that holds its verbs for this request:
    // that copy is the attempt's actions, so no closure wraps them.
    const attempt = new CallbackAttempt(setup, this.verify, req, this);
    // Passport ignores the return value, so a rejection must become `error` here.
    // Service failures become our 502/503/504; errors of the app's verify pass as they are.
    attempt.run().catch((err: unknown) => this.error(isClientError(err) ? serviceFailure(err) : err));
  }
}
