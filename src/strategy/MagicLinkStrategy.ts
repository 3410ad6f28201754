import type { OtplessClient } from '../client/index.js';
import { assessRisk } from '../risk/index.js';
import type { RiskVerdict } from '../risk/index.js';
import type { CodeVerificationResult } from '../wire/types.js';
import { readCallbackInput } from './callbackInput.js';
import { sendConfirmPage } from '../web/pages.js';
import { enrichLogin } from './enrich.js';
import type { Enrichments } from './enrich.js';
import { failure } from './failures.js';
import type { CallbackFailureCode } from './failures.js';
import { sessionOf } from '../session/session.js';
import type { HttpRequest } from '../web/request.js';
import { resolveStrategyOptions } from './options.js';
import type { MagicLinkStrategyOptions, ResolvedStrategyOptions } from './options.js';
import { consumePending, livePending } from '../session/pending.js';
import { buildProfile } from './profile.js';
import { buildLoginRecord, writeRecordOnLogin } from '../session/loginRecord.js';
import { isSameOriginPost } from '../web/origin.js';
import { createSendMiddleware } from './send.js';
import type { SendMiddleware, SendOptions } from './send.js';
import { isClientError, isRejectedByService, serviceFailure } from './failures.js';
import { OtplessSetupError } from '../errors.js';
import { runVerify } from './verify.js';
import type { VerifyFunction, VerifyFunctionWithRequest } from './verify.js';

/** What a path of the callback hands on once the person is verified. */
interface VerifiedLogin {
  viaToken: boolean;
  token: string;
  verification: CodeVerificationResult | undefined;
  enrichments: Enrichments;
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
 *   { clientId, clientSecret, callbackURL: 'https://app.example.com/auth/callback' },
 *   async (profile) => users.findOrCreate(profile.id),
 * );
 * passport.use(strategy);
 * app.post('/auth/magic-link', express.urlencoded({ extended: false }), strategy.send({ successRedirect: '/check-inbox' }));
 * app.get('/auth/callback', passport.authenticate('magic-link', { successRedirect: '/', failureRedirect: '/login' }));
 */
export class MagicLinkStrategy {
  /** The name to give `passport.authenticate()`: 'magic-link' unless `options.name` says otherwise. */
  readonly name: string;
  /** The client the strategy calls the service with. */
  readonly client: OtplessClient;
  private readonly settings: ResolvedStrategyOptions;
  private readonly verify: VerifyFunction | VerifyFunctionWithRequest;

  // Passport adds these to a per-request copy of the strategy before `authenticate` runs.
  declare success: (user: object, info?: object) => void;
  declare fail: (challenge?: object | string, status?: number) => void;
  declare error: (err: unknown) => void;
  declare redirect: (url: string, status?: number) => void;
  declare pass: () => void;

  constructor(options: MagicLinkStrategyOptions & { passReqToCallback: true }, verify: VerifyFunctionWithRequest);
  constructor(options: MagicLinkStrategyOptions & { passReqToCallback?: false }, verify: VerifyFunction);
  constructor(options: MagicLinkStrategyOptions, verify: VerifyFunction | VerifyFunctionWithRequest) {
    if (typeof verify !== 'function')
      throw new TypeError('MagicLinkStrategy: the second argument must be a verify function');
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
    return createSendMiddleware(this.settings, options);
  }

  /** Called by Passport on the callback route; every path ends in one Passport action. */
  authenticate(req: HttpRequest, _options?: unknown): void {
    const res = req.res;
    if (res && !res.headersSent) {
      // The URL carries a one-time code: keep it out of caches and out of Referer headers.
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Referrer-Policy', 'no-referrer');
    }
    // Passport ignores the return value, so a rejection must become `error` here.
    // Service failures become our 502/503/504; errors of the app's verify pass as they are.
    this.handleCallback(req).catch((err: unknown) => this.error(isClientError(err) ? serviceFailure(err) : err));
  }

  /** Reads what the callback was given, takes the path for it, then finishes the login. */
  private async handleCallback(req: HttpRequest): Promise<void> {
    const input = readCallbackInput(req);
    if (input.kind === 'invalid') return this.refuse(input.failure);
    const verified = input.kind === 'token' ? await this.byToken(req, input.token) : await this.byCode(req, input.code);
    if (verified) await this.finish(req, verified);
  }

  /** A frontend-SDK token: validate-token verifies it, then it is enriched as asked. */
  private async byToken(req: HttpRequest, inputToken: string): Promise<VerifiedLogin | undefined> {
    if (!isSameOriginPost(req, this.settings.callbackURL)) return this.refuse('CROSS_SITE');
    let validated;
    try {
      validated = await this.client.validateToken(inputToken);
    } catch (err) {
      if (isRejectedByService(err)) return this.refuse('TOKEN_REJECTED');
      throw err;
    }
    const token = validated.token || inputToken;
    const rest = new Set(this.settings.enrich);
    rest.delete('validateToken');
    const enrichments = { ...(await enrichLogin(this.client, token, rest)), tokenValidation: validated };
    return { viaToken: true, token, verification: undefined, enrichments };
  }

  /** A code from the link: bound to the browser that asked, verified, then enriched. */
  private async byCode(req: HttpRequest, code: string): Promise<VerifiedLogin | undefined> {
    // Only the person's POST spends the code: GET and HEAD (scanners send both) see the page.
    if (this.settings.confirm && req.method !== 'POST') {
      if (!req.res) {
        throw new OtplessSetupError(
          'MISSING_RESPONSE',
          'confirm mode needs the response object on req.res (use Express or Connect)',
        );
      }
      sendConfirmPage(req.res, code);
      return undefined;
    }
    const now = Date.now();
    const session = sessionOf(req);
    if (!this.settings.crossDevice) {
      if (!session) throw OtplessSetupError.missingSession();
      // No live pending request here: the link was asked for in another browser. Refuse
      // before verifying, so the code stays usable in the browser that asked for it.
      if (livePending(session, now).length === 0) return this.refuse('WRONG_BROWSER');
    }
    let verification: CodeVerificationResult;
    try {
      verification = await this.client.verifyCode(code);
    } catch (err) {
      if (isRejectedByService(err)) return this.refuse('CODE_REJECTED');
      throw err;
    }
    const matched = consumePending(session, verification.requestId, now);
    if (!matched && !this.settings.crossDevice) return this.refuse('WRONG_BROWSER');
    const token = verification.userDetails.token;
    const enrichments = await enrichLogin(this.client, token, this.settings.enrich);
    return { viaToken: false, token, verification, enrichments };
  }

  /** Judges the signals, builds the profile, asks the app's `verify`, and logs the user in. */
  private async finish(req: HttpRequest, login: VerifiedLogin): Promise<void> {
    const risk = this.assess(login.viaToken, login.enrichments);
    const profile = buildProfile({ verification: login.verification, ...login.enrichments }, risk);
    const { user, info } = await runVerify(this.verify, this.settings.passReqToCallback, req, profile);
    if (!user) {
      const refused = failure('USER_REFUSED');
      return this.fail({ ...refused.challenge, ...info }, refused.status);
    }
    writeRecordOnLogin(req, buildLoginRecord(req, profile, risk, login.token, Date.now()));
    // Send limits (#11): a login that went through clears the send counts of what it verified (best effort).
    const verified = profile.identities.filter((i) => i.verified);
    await Promise.all(verified.map((i) => this.settings.limiter?.resetDestination(i.value).catch(() => undefined)));
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
  private refuse(code: CallbackFailureCode): undefined {
    const { challenge, status } = failure(code);
    this.fail(challenge, status);
    return undefined;
  }
}
