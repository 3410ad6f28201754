import type { ServerResponse } from 'node:http';
import type { OtplessClient } from '../client/index.js';
import { channels } from '../diagnostics.js';
import { OtplessSetupError } from '../errors.js';
import { summarizeDevice } from '../flow/device.js';
import { approveOnThisDevice } from '../flow/approve.js';
import { FLOW_PARAM } from '../flow/handoff.js';
import type { FlowStatus } from '../flow/handoff.js';
import { assessRisk } from '../risk/index.js';
import type { RiskVerdict } from '../risk/index.js';
import { buildLoginRecord, writeRecordOnLogin } from '../session/loginRecord.js';
import {
  allPending,
  hashRequestId,
  livePending,
  otherPendingHas,
  takePendingByFlow,
  takePendingByRequestId,
} from '../session/pending.js';
import type { PendingRequest } from '../session/pending.js';
import { sessionOf } from '../session/session.js';
import type { SessionLike } from '../session/session.js';
import { isSameOriginPost } from '../web/origin.js';
import { translatorFor } from '../web/messages/index.js';
import { confirmView, showPage } from '../web/pages.js';
import { sendJson } from '../web/request.js';
import { answered, isFastifyRequest, nodeArgs, replyOf, responseOf, setHeader } from '../web/host.js';
import type { HostArgs, HostHandler } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import type { CodeVerificationResult } from '../wire/types.js';
import { readCallbackInput } from './callbackInput.js';
import { enrichLogin } from './enrich.js';
import type { Enrichments } from './enrich.js';
import { failure, isClientError, isRejectedByService, serviceFailure } from './failures.js';
import type { CallbackFailureCode } from './failures.js';
import { resolveStrategyOptions } from './options.js';
import type { MagicLinkStrategyOptions, ResolvedStrategyOptions } from './options.js';
import { buildProfile } from './profile.js';
import type { MagicLinkHandoff } from './profile.js';
import { PassportStrategyBase } from './passportBase.js';
import { createSendMiddleware } from './send.js';
import type { SendMiddleware, SendOptions } from './send.js';
import { authenticatedAt, isFreshToken, useTokenOnce } from './tokens.js';
import { runVerify } from './verify.js';
import type { VerifyFunction, VerifyFunctionWithRequest } from './verify.js';
import { warnOnce } from './warn.js';

/** What a path of the callback hands on once the person is verified. */
interface VerifiedLogin {
  viaToken: boolean;
  token: string;
  verification: CodeVerificationResult | undefined;
  enrichments: Enrichments;
  handoff?: MagicLinkHandoff | undefined;
  /** Hashes of the destinations this browser's send went to (see `PendingRequest.destinationHashes`). */
  sentTo?: readonly string[] | undefined;
  /** Epoch ms the signals describe: the service's authentication time on the token path. */
  signalsAt?: number | undefined;
}

/**
 * A session store in this process's memory: express-session's MemoryStore, or @fastify/session's
 * default `Store` (a class named `Store` keeping sessions in a Map under `store`).
 */
function isMemorySessionStore(store: object): boolean {
  return store.constructor?.name === 'MemoryStore' || (store as { store?: unknown }).store instanceof Map;
}

/** Strategies (by their settings) whose first request has been looked at for shared sessions. */
const stateChecked = new WeakSet<ResolvedStrategyOptions>();

/**
 * True when @fastify/passport runs the strategy (it decorates the request with its
 * authenticator); NestJS on Fastify runs Passport itself, which must get no action after a page.
 */
function isFastifyPassport(req: HttpRequest): boolean {
  const authenticator = (req as { passport?: { sessionManager?: unknown } }).passport;
  return typeof authenticator === 'object' && authenticator !== null && authenticator.sessionManager !== undefined;
}

/** Passport's options that make it call `res.redirect`. */
function asksPassportRedirect(options: unknown): boolean {
  if (!options || typeof options !== 'object') return false;
  const o = options as Record<string, unknown>;
  return Boolean(o.successRedirect || o.failureRedirect || o.successReturnToOrRedirect);
}

function hasRedirect(res: ServerResponse | undefined): boolean {
  return typeof (res as { redirect?: unknown } | undefined)?.redirect === 'function';
}

/** The body of `strategy.status()`. */
export interface FlowStatusBody {
  status: FlowStatus;
  /** The number to show, while the flow waits for approval. */
  match?: string;
  /** When the link expires (ISO 8601). */
  expiresAt?: string;
}

/**
 * Passport strategy for OTPless magic links.
 *
 * `strategy.send()` is the route that sends the link; `passport.authenticate('magic-link')` on
 * the callback route verifies the `code` the link brings back (or a frontend-SDK `token`
 * POSTed to it), builds a `MagicLinkProfile` and hands it to `verify`.
 *
 * @example
 * const strategy = new MagicLinkStrategy(
 *   { clientId, clientSecret, callbackUrl: 'https://app.example.com/auth/callback' },
 *   async (profile) => users.findOrCreate(profile.id),
 * );
 * passport.use(strategy);
 * app.post('/auth/magic-link', express.urlencoded({ extended: false }), strategy.send({ successRedirect: '/check-inbox' }));
 * app.get('/auth/callback', passport.authenticate('magic-link', { successRedirect: '/', failureRedirect: '/login' }));
 */
export class MagicLinkStrategy extends PassportStrategyBase {
  /** The name to give `passport.authenticate()`: 'magic-link' unless `options.name` says otherwise. */
  readonly name: string;
  /** The client the strategy calls the service with. */
  readonly client: OtplessClient;
  private readonly settings: ResolvedStrategyOptions;
  private readonly verify: VerifyFunction | VerifyFunctionWithRequest;

  // Passport adds these to a per-request copy of the strategy before `authenticate` runs.
  // Shaped to fit @types/passport-strategy's `Strategy`: `fail` takes a challenge and a status.
  declare success: (user: object, info?: object) => void;
  declare fail: { (challenge: object | string | undefined, status: number): void; (status: number): void };
  declare error: (err: unknown) => void;
  declare redirect: (url: string, status?: number) => void;
  declare pass: () => void;
  /** The request of this attempt, for the language of its refusals. */
  private request: HttpRequest | undefined;

  constructor(options: MagicLinkStrategyOptions & { passReqToCallback: true }, verify: VerifyFunctionWithRequest);
  constructor(options: MagicLinkStrategyOptions & { passReqToCallback?: false }, verify: VerifyFunction);
  constructor(options: MagicLinkStrategyOptions, verify: VerifyFunction | VerifyFunctionWithRequest) {
    if (typeof verify !== 'function')
      throw new TypeError('MagicLinkStrategy: the second argument must be a verify function');
    super();
    this.settings = resolveStrategyOptions(options);
    this.name = this.settings.name;
    this.client = this.settings.client;
    this.verify = verify;
  }

  /**
   * Express middleware that sends a magic link to `email` and/or `mobile` from `req.body`.
   * See `SendOptions` for field names, redirects and error handling.
   *
   * @example
   * app.post('/auth/magic-link', express.json(), strategy.send());
   */
  send(options: SendOptions = {}): SendMiddleware {
    const send = createSendMiddleware(this.settings, options) as (...given: HostArgs<HttpRequest>) => void;
    // Either host's arguments: the first is the request (a Fastify one has no sessionStore to look at).
    return ((...given: HostArgs<HttpRequest>) => {
      this.warnIfStateInMemory(given[0] as HttpRequest);
      send(...given);
    }) as SendMiddleware;
  }

  /**
   * Sessions in a shared store (express-session with a store other than its MemoryStore) say
   * the app runs on several instances; flows and used tokens in this process's memory would
   * then not be seen by the others. Told once, at the first request.
   */
  private warnIfStateInMemory(req: HttpRequest): void {
    if (stateChecked.has(this.settings)) return;
    stateChecked.add(this.settings);
    const sessionStore = (req as { sessionStore?: object }).sessionStore;
    if (this.settings.sharedState || !sessionStore || isMemorySessionStore(sessionStore)) return;
    warnOnce(
      'OTPLESS_STATE_IN_MEMORY',
      'passport-otpless: sessions are in a shared store but sign-in flows, used tokens and send limits are in ' +
        "this process's memory: other instances will not see them. Give the strategy your Redis client: " +
        'new MagicLinkStrategy({ ..., store: redisClient }).',
    );
  }

  /**
   * Express middleware answering JSON for this session's latest link:
   * `{ status: 'none'|'pending'|'approved'|'denied'|'expired', match?, expiresAt? }`. The page
   * waiting on the laptop polls it, shows `match`, and goes to the callback route once `approved`.
   *
   * @example
   * app.get('/auth/status', strategy.status());
   */
  status(): HostHandler<HttpRequest> {
    return (...given: HostArgs<HttpRequest>) => {
      const [req, res, next] = nodeArgs(...given);
      this.flowStatus(req).then((body) => {
        setHeader(res, 'Cache-Control', 'no-store');
        sendJson(res, 200, body);
      }, next);
    };
  }

  /**
   * Where this session's latest cross-device flow stands, for a page rendered on the server.
   *
   * @example
   * const { status, match } = await strategy.flowStatus(req);
   */
  async flowStatus(req: HttpRequest): Promise<FlowStatusBody> {
    const latest = allPending(sessionOf(req)).at(-1);
    if (!latest || !this.settings.handoff) return { status: 'none' };
    const now = Date.now();
    const expiresAt = new Date(latest.expiresAt).toISOString();
    if (latest.expiresAt <= now) return { status: 'expired', expiresAt };
    const { status, record } = await this.settings.handoff.status(latest.flowId, now);
    if (status !== 'pending' || !record) return { status, expiresAt };
    return { status, match: this.settings.handoff.numberOf(latest.flowId), expiresAt };
  }

  /** Called by Passport on the callback route; every path ends in one Passport action or a page. */
  authenticate(req: HttpRequest, options?: unknown): void {
    // Passport (and @fastify/passport) run each attempt on a copy of the strategy: this is per request.
    this.request = req;
    this.warnIfStateInMemory(req);
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
    // Passport ignores the return value, so a rejection must become `error` here.
    // Service failures become our 502/503/504; errors of the app's verify pass as they are.
    this.handleCallback(req).catch((err: unknown) => this.error(isClientError(err) ? serviceFailure(err) : err));
  }

  /** Reads what the callback was given, takes the path for it, then finishes the login. */
  private async handleCallback(req: HttpRequest): Promise<void> {
    const input = readCallbackInput(req);
    let verified: VerifiedLogin | undefined;
    if (input.kind === 'invalid') return this.refuse(input.failure);
    else if (input.kind === 'token') verified = await this.byToken(req, input.token);
    else if (input.kind === 'none') verified = await this.byFlow(req);
    else verified = await this.byCode(req, input.code, input.flowId);
    if (verified) await this.finish(req, verified);
  }

  /** A frontend-SDK token: validate-token verifies it, then it is enriched as asked. */
  private async byToken(req: HttpRequest, inputToken: string): Promise<VerifiedLogin | undefined> {
    if (!isSameOriginPost(req, this.settings.callbackUrl)) return this.refuse('CROSS_SITE');
    let validated;
    try {
      validated = await this.client.validateToken(inputToken);
    } catch (err) {
      if (isRejectedByService(err)) return this.refuse('TOKEN_REJECTED');
      throw err;
    }
    const token = validated.token || inputToken;
    // Judged on the service's own time stamps: a token authenticated long ago is not a login now.
    const authAt = authenticatedAt(validated);
    const now = Date.now();
    // A time in the future beyond the skew is refused too: the used mark could not cover it.
    if (authAt === undefined || !isFreshToken(authAt, now, this.settings.maxAuthAgeMs)) {
      return this.refuse('TOKEN_REJECTED');
    }
    if (!(await this.useTokenOnce(token))) return this.refuse('TOKEN_REJECTED');
    const rest = new Set(this.settings.enrich);
    rest.delete('validateToken');
    const enrichments = { ...(await enrichLogin(this.client, token, rest)), tokenValidation: validated };
    return { viaToken: true, token, verification: undefined, enrichments, signalsAt: Math.min(authAt, now) };
  }

  /**
   * A code from the link. The flow id it brought back decides where it belongs before anything
   * is verified: a send of this browser (sign in here), or one of another browser (per
   * `crossDevice`). Without a flow id (a service that drops the query), the service's request
   * id binds it after verification, as a fallback.
   */
  private async byCode(req: HttpRequest, code: string, flowId: string | undefined): Promise<VerifiedLogin | undefined> {
    const now = Date.now();
    const session = sessionOf(req);
    const mode = this.settings.crossDevice;
    if (mode !== 'accept' && !session) throw OtplessSetupError.missingSession();
    if (flowId === undefined) return this.byRequestId(req, code);
    const own = livePending(session, now).some((p) => p.flowId === flowId);
    if (own) {
      if (this.asksConfirmPage(req)) return this.showConfirmPage(req, code);
      if (!this.isSameOriginIfPosted(req)) return this.refuse('CROSS_SITE');
      // Taken before verifying: this send serves one login, whatever happens next.
      const pending = takePendingByFlow(session, flowId, now);
      if (!pending) return this.refuse('WRONG_BROWSER');
      await this.settings.handoff?.discard(flowId);
      const verification = await this.verifyCode(code);
      if (!verification) return this.refuse('CODE_REJECTED');
      if (!this.requestIdAgrees(session, pending, verification.requestId, now)) return this.refuse('WRONG_BROWSER');
      return this.enriched(verification, undefined, pending.destinationHashes);
    }
    // The link was opened in another browser than the one that asked for it.
    if (mode === 'refuse') return this.refuse('WRONG_BROWSER');
    if (mode === 'handoff') {
      await this.approveHere(req, code, flowId);
      return undefined;
    }
    if (this.asksConfirmPage(req)) return this.showConfirmPage(req, code);
    if (!this.isSameOriginIfPosted(req)) return this.refuse('CROSS_SITE');
    const verification = await this.verifyCode(code);
    return verification ? this.enriched(verification, undefined) : this.refuse('CODE_REJECTED');
  }

  /** The fallback when the link came back without its flow id: the service's request id binds it. */
  private async byRequestId(req: HttpRequest, code: string): Promise<VerifiedLogin | undefined> {
    const now = Date.now();
    const session = sessionOf(req);
    const accept = this.settings.crossDevice === 'accept';
    if (!accept && livePending(session, now).length === 0) {
      // No send here to bind to: refused before verifying, so the code stays usable where it belongs.
      return this.refuse('WRONG_BROWSER');
    }
    if (this.asksConfirmPage(req)) return this.showConfirmPage(req, code);
    if (!this.isSameOriginIfPosted(req)) return this.refuse('CROSS_SITE');
    const verification = await this.verifyCode(code);
    if (!verification) return this.refuse('CODE_REJECTED');
    const pending = takePendingByRequestId(session, verification.requestId, now);
    // Warnings about the service only on its evidence: the service verified this code, and it came
    // in the URL the link opened (its query). A code POSTed in a body without its flow is the
    // app's page leaving the flow out, and a code the service refused is anyone's guess: neither
    // says anything of the service.
    const landed = codeInQuery(req);
    if (landed && pending?.flowId !== undefined) {
      // The code belongs to a send whose redirect_uri carried the flow, and it came back without it.
      warnOnce(
        'OTPLESS_FLOW_PARAM_MISSING',
        `passport-otpless: a sign-in link came back without its "${FLOW_PARAM}" parameter, so the service seems to drop ` +
          "the query of redirect_uri. Same-browser logins fall back to the service's request id; cross-device " +
          'handoff cannot work. Run `npx otpless-check` to confirm.',
      );
    }
    if (!pending && !accept) {
      if (landed)
        warnOnce(
          'OTPLESS_BINDING_FAILED',
          "passport-otpless: a link came back without its flow parameter and the service's requestId matched no " +
            'send of the browser: neither binding holds for this service. Run `npx otpless-check`.',
        );
      return this.refuse('WRONG_BROWSER');
    }
    return this.enriched(verification, undefined, pending?.destinationHashes);
  }

  /** The phone's side of a handoff: the approval page and its answer (src/flow/approve.ts). */
  private async approveHere(req: HttpRequest, code: string, flowId: string): Promise<void> {
    const handoff = this.settings.handoff;
    const res = responseOf(req);
    if (!res || !handoff) throw OtplessSetupError.missingResponse('the approval page');
    await approveOnThisDevice(req, res, code, flowId, {
      handoff,
      callbackUrl: this.settings.callbackUrl,
      verifyCode: (c) => this.verifyCode(c),
      refuse: (failureCode) => void this.refuse(failureCode),
      pages: this.settings.pages,
      spendToken: (token) => this.useTokenOnce(token),
      requestIdsDiffer: this.settings.requestIdsDiffer,
    });
    this.answeredByPage(req, res);
  }

  /**
   * A page was answered instead of a Passport action. @fastify/passport waits for an action:
   * `pass` ends its hook (Fastify skips the handler of an answered request). Passport itself
   * (Express, Connect, NestJS on either platform) must get none, or the next handler would
   * answer again.
   */
  private answeredByPage(req: HttpRequest, res: ServerResponse): void {
    if (isFastifyRequest(req) && replyOf(res)?.sent && isFastifyPassport(req)) this.pass();
  }

  /**
   * The asking browser back on the callback route with no code: finishes its approved flow.
   * The take is atomic across instances, so one approval gives one login, even with two tabs.
   */
  private async byFlow(req: HttpRequest): Promise<VerifiedLogin | undefined> {
    const handoff = this.settings.handoff;
    const session = sessionOf(req);
    const now = Date.now();
    const flows = livePending(session, now).reverse();
    if (!handoff || flows.length === 0) return this.refuse('INVALID_CODE');
    let pending = false;
    let denied = false;
    for (const flow of flows) {
      const taken = await handoff.take(flow.flowId, now);
      if (taken?.kind === 'approved') {
        const mine = takePendingByFlow(session, flow.flowId, now);
        if (!mine) return this.refuse('FLOW_EXPIRED');
        const { verification, approvedAt, approvedBy } = taken.approval;
        if (!this.requestIdAgrees(session, mine, verification.requestId, now)) return this.refuse('WRONG_BROWSER');
        const askedBy = summarizeDevice(req.headers['user-agent']);
        return this.enriched(
          verification,
          { approvedBy, approvedAt: new Date(approvedAt), askedBy },
          mine.destinationHashes,
        );
      }
      if (taken?.kind === 'denied') {
        denied = true;
        takePendingByFlow(session, flow.flowId, now);
      }
      if (taken?.kind === 'pending') pending = true;
    }
    return this.refuse(pending ? 'FLOW_PENDING' : denied ? 'FLOW_DENIED' : 'FLOW_EXPIRED');
  }

  /**
   * `confirm` mode: GET and HEAD (scanners send both) see a page; only the person's POST spends
   * the code. Asked before the page is shown: most logins have no page, and pay no async call.
   */
  private asksConfirmPage(req: HttpRequest): boolean {
    return this.settings.confirm && req.method !== 'POST';
  }

  /** Shows the confirm page (see `asksConfirmPage`); the login goes on with the person's POST. */
  private async showConfirmPage(req: HttpRequest, code: string): Promise<undefined> {
    const res = responseOf(req);
    if (!res) throw OtplessSetupError.missingResponse('confirm mode');
    const page = { req, res, options: this.settings.pages };
    await showPage(page, confirmView(page, code));
    this.answeredByPage(req, res);
    return undefined;
  }

  /** A code POSTed (confirm mode) must come from a page of this site: login CSRF otherwise. */
  private isSameOriginIfPosted(req: HttpRequest): boolean {
    return req.method !== 'POST' || isSameOriginPost(req, this.settings.callbackUrl);
  }

  /** The verification, or `undefined` when the service refused the code (invalid, expired, used). */
  private async verifyCode(code: string): Promise<CodeVerificationResult | undefined> {
    try {
      return await this.client.verifyCode(code);
    } catch (err) {
      if (isRejectedByService(err)) return undefined;
      throw err;
    }
  }

  /**
   * The service's request id must name this send: naming another send of this browser is a
   * mismatch, and so is naming none (a code of someone else's send), unless the app said the
   * service's ids differ from the send's (`requestIdsDiffer`).
   */
  private requestIdAgrees(
    session: SessionLike | undefined,
    pending: PendingRequest,
    requestId: string,
    now: number,
  ): boolean {
    if (pending.requestIdHashes.includes(hashRequestId(requestId))) return true;
    if (otherPendingHas(session, requestId, now)) return false;
    if (!this.settings.requestIdsDiffer) return false;
    warnOnce(
      'OTPLESS_REQUEST_ID_DIFFERS',
      "passport-otpless: the service's verify-code requestId is not one the send returned; as requestIdsDiffer " +
        'says, binding rests on the flow parameter alone. Run `npx otpless-check` for details.',
    );
    return true;
  }

  private async enriched(
    verification: CodeVerificationResult,
    handoff: MagicLinkHandoff | undefined,
    sentTo?: readonly string[],
  ): Promise<VerifiedLogin> {
    const token = verification.userDetails.token;
    // The link's token is spent with the code: POSTed later as a frontend token, it is refused.
    // Marking it needs none of the enrichments, so both run at once (a shared store's round
    // trip beside the service's); a store that fails still fails the login. A handoff's token
    // was spent by the approval, before it was stored.
    const spent = handoff ? undefined : this.useTokenOnce(token);
    const wanted = this.settings.enrich;
    // No enrichment asked (the default): the mark alone, not a Promise.all around nothing.
    let enrichments: Enrichments = {};
    if (wanted.size === 0) await spent;
    else [, enrichments] = await Promise.all([spent, enrichLogin(this.client, token, wanted)]);
    return { viaToken: false, token, verification, enrichments, handoff, sentTo };
  }

  /** Marks a token used across every instance; false when it was already (src/strategy/tokens.ts). */
  private useTokenOnce(token: string): Promise<boolean> {
    return useTokenOnce(this.settings.store, this.settings.secrets, token, this.settings.maxAuthAgeMs);
  }

  /** Judges the signals, builds the profile, asks the app's `verify`, and logs the user in. */
  private async finish(req: HttpRequest, login: VerifiedLogin): Promise<void> {
    const risk = this.assess(login.viaToken, login.enrichments);
    const profile = buildProfile({ verification: login.verification, ...login.enrichments }, risk, login.sentTo);
    if (!profile) return void this.refuse('NO_VERIFIED_IDENTITY');
    if (login.handoff) profile.handoff = login.handoff;
    const { user, info } = await runVerify(this.verify, this.settings.passReqToCallback, req, profile);
    if (!user) return this.refuse('USER_REFUSED', info);
    const record = buildLoginRecord(req, profile, risk, login.token, login.signalsAt ?? Date.now());
    if (login.handoff) record.handoff = true;
    writeRecordOnLogin(req, record);
    // Send limits: a login that went through clears the send counts of what it verified (best effort).
    const limiter = this.settings.limiter;
    if (limiter) {
      const verified = profile.identities.filter((i) => i.verified);
      await Promise.all(verified.map((i) => limiter.resetDestination(i.value).catch(() => undefined)));
    }
    if (channels.loginSucceeded.hasSubscribers) {
      channels.loginSucceeded.publish({
        via: login.handoff ? 'handoff' : login.viaToken ? 'token' : 'code',
        verified: record.verified,
        ...(risk ? { risk: risk.action } : {}),
      });
    }
    this.success(user, info);
  }

  /** A verdict whenever signals were asked for; none when no call could have returned them. */
  private assess(viaToken: boolean, enrichments: Enrichments): RiskVerdict | undefined {
    const asked = viaToken || this.settings.enrich.has('validateToken') || this.settings.enrich.has('secureInfo');
    if (!asked) return undefined;
    const signals = enrichments.secureInfo?.secure_info ?? enrichments.tokenValidation?.secureInfo;
    return assessRisk(signals, this.settings.riskPolicy);
  }

  /** Ends the request with Passport's `fail`; returns nothing so a path can `return this.refuse(...)`. */
  private refuse(code: CallbackFailureCode, info?: object): undefined {
    const { t } = translatorFor(this.request, this.settings.pages);
    const { challenge, status } = failure(code, t);
    if (channels.loginRefused.hasSubscribers) channels.loginRefused.publish({ code, status });
    // `info` is what the app's verify gave with its refusal, for Passport's failure handling.
    this.fail(info ? { ...challenge, ...info } : challenge, status);
    return undefined;
  }
}

/** True when the code came in the URL itself, as the service's redirect puts it (not in a body). */
function codeInQuery(req: HttpRequest): boolean {
  const url = (req as HttpRequest & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return new URLSearchParams(url.split('?')[1] ?? '').has('code');
}
