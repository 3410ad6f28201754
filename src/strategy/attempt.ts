import type { ServerResponse } from 'node:http';
import { OtplessSetupError } from '../errors/index.js';
import { approveOnThisDevice } from '../flow/approve.js';
import { summarizeDevice } from '../flow/device.js';
import type { LoginSetup } from '../login/compose.js';
import { channels } from '../diagnostics.js';
import {
  findPendingByFlow,
  hashRequestId,
  livePending,
  otherPendingHas,
  takeFoundPending,
  takePendingByFlow,
  takePendingByRequestId,
} from '../session/pending.js';
import type { PendingRequest } from '../session/pending.js';
import { sessionOf } from '../session/session.js';
import type { SessionLike } from '../session/session.js';
import { isFastifyRequest, replyOf, responseOf } from '../web/host.js';
import { translatorFor } from '../web/messages/index.js';
import { isSameOriginPost } from '../web/origin.js';
import { confirmView, showPage } from '../web/pages.js';
import type { HttpRequest } from '../web/request.js';
import type { CodeVerificationResult } from '../wire/types.js';
import { readCallbackInput } from './callbackInput.js';
import { enrichLogin } from '../login/enrich.js';
import { failure, isRejectedByService } from '../login/failures.js';
import type { CallbackFailureCode } from '../errors/callbackCodes.js';
import { enrichedLogin, finishLogin } from './finishLogin.js';
import { verifySessionToken } from './sessionToken.js';
import type { VerifiedLogin } from './finishLogin.js';
import { authenticatedAt, isFreshToken, usedMarkMs, useTokenOnce } from './tokens.js';
import type { VerifyFunction, VerifyFunctionWithRequest } from './verify.js';
import { warnIfBindingLost } from './bindingWarnings.js';
import { warnOnce } from '../errors/warnings.js';

/** Passport's verbs for one attempt, as the per-request copy of the strategy has them. */
export interface PassportActions {
  success(user: object, info?: object): void;
  fail(challenge: object, status: number): void;
  pass(): void;
}

/**
 * True when @fastify/passport runs the strategy (it decorates the request with its
 * authenticator); NestJS on Fastify runs Passport itself, which must get no action after a page.
 */
function isFastifyPassport(req: HttpRequest): boolean {
  const authenticator = (req as { passport?: { sessionManager?: unknown } }).passport;
  return typeof authenticator === 'object' && authenticator !== null && authenticator.sessionManager !== undefined;
}

/**
 * One run of the callback: what the request brought decides the path (a link's code, a
 * frontend token, or the asking browser back after an approval); each path ends in one
 * Passport verb or in a page answered here. The request's language comes with the request.
 */
export class CallbackAttempt {
  constructor(
    private readonly settings: LoginSetup,
    private readonly verify: VerifyFunction | VerifyFunctionWithRequest,
    private readonly req: HttpRequest,
    private readonly actions: PassportActions,
  ) {}

  /** Reads what the callback was given, takes the path for it, then finishes the login. */
  async run(): Promise<void> {
    const req = this.req;
    const input = readCallbackInput(req);
    let verified: VerifiedLogin | undefined;
    if (input.kind === 'invalid') return this.refuse(input.failure);
    else if (input.kind === 'token') verified = await this.byToken(req, input.token);
    else if (input.kind === 'none') verified = await this.byFlow(req);
    else if (input.kind === 'sessionToken') {
      const result = await verifySessionToken(this.settings, req, input.sessionToken);
      if (typeof result === 'string') return this.refuse(result);
      verified = result;
    } else verified = await this.byCode(req, input.code, input.flowId);
    if (verified) await this.finish(verified);
  }

  /** A frontend-SDK token: validate-token verifies it, then it is enriched as asked. */
  private async byToken(req: HttpRequest, inputToken: string): Promise<VerifiedLogin | undefined> {
    if (!isSameOriginPost(req, this.settings.callbackUrl)) return this.refuse('CROSS_SITE');
    let validated;
    try {
      validated = await this.settings.client.validateToken(inputToken);
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
    // Single use rests on `verifiedAt` dating the sign-in: refused where it dates each answer,
    // marked for a day while that is not yet known (src/login/tokenTimes.ts).
    const times = await this.settings.tokenTimes.known();
    if (times === 'answer') {
      warnOnce('OTPLESS_TOKEN_REPLAYABLE');
      return this.refuse('TOKEN_REJECTED');
    }
    const markMs = usedMarkMs(times !== undefined, this.settings.maxAuthAgeMs);
    if (!(await this.useTokenOnce(token, markMs))) return this.refuse('TOKEN_REJECTED');
    if (times === undefined) this.settings.tokenTimes.accepted(token, validated);
    const rest = new Set(this.settings.enrich);
    rest.delete('validateToken');
    const enrichments = { ...(await enrichLogin(this.settings.client, token, rest)), tokenValidation: validated };
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
    const own = findPendingByFlow(session, flowId, now);
    if (own && session) {
      if (this.asksConfirmPage(req)) return this.showConfirmPage(req, code);
      if (!this.isSameOriginIfPosted(req)) return this.refuse('CROSS_SITE');
      // Taken before verifying (nothing awaited since it was found): this send serves one login, whatever happens next.
      const pending = takeFoundPending(session, own);
      await this.settings.handoff?.discard(flowId, now, pending.expiresAt);
      const verification = await this.verifyCode(code);
      if (!verification) return this.refuse('CODE_REJECTED');
      if (!this.requestIdAgrees(session, pending, verification.requestId, now)) return this.refuse('WRONG_BROWSER');
      // Awaited here: an async function that returns a promise settles two turns later.
      return await this.enriched(verification, undefined, pending.destinationHashes);
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
    warnIfBindingLost(req, { flowDropped: pending?.flowId !== undefined, unbound: !pending && !accept });
    if (!pending && !accept) return this.refuse('WRONG_BROWSER');
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
    if (isFastifyRequest(req) && replyOf(res)?.sent && isFastifyPassport(req)) this.actions.pass();
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
    return this.settings.confirm && isRead(req);
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

  /**
   * A code sent by any method but GET and HEAD (a POST in confirm mode, or a PUT to a callback
   * mounted with `app.all`) must come from a page of this site: login CSRF otherwise.
   */
  private isSameOriginIfPosted(req: HttpRequest): boolean {
    return isRead(req) || isSameOriginPost(req, this.settings.callbackUrl);
  }

  /** The verification, or `undefined` when the service refused the code (invalid, expired, used). */
  private async verifyCode(code: string): Promise<CodeVerificationResult | undefined> {
    try {
      return await this.settings.client.verifyCode(code);
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
    warnOnce('OTPLESS_REQUEST_ID_DIFFERS');
    return true;
  }

  /**
   * Marks a token used across every instance; false when it was already (src/strategy/tokens.ts).
   * A verified code's token lives no longer than the code's sign-in allows (the code is single use
   * at the service, and its `verifiedAt` is not what its login rests on).
   */
  private useTokenOnce(token: string, markMs = usedMarkMs(true, this.settings.maxAuthAgeMs)): Promise<boolean> {
    return useTokenOnce(this.settings.store, this.settings.secrets, token, markMs);
  }

  /** The enrichments of a verified code, its token marked used (see `enrichedLogin`). */
  private enriched(
    verification: CodeVerificationResult,
    handoff: VerifiedLogin['handoff'],
    sentTo?: readonly string[],
  ): Promise<VerifiedLogin> {
    return enrichedLogin(this.settings, verification, handoff, sentTo, (token) => this.useTokenOnce(token));
  }

  /** Judges the signals, builds the profile, asks the app's `verify`, and logs the user in. */
  private async finish(login: VerifiedLogin): Promise<void> {
    const outcome = await finishLogin(this.settings, this.verify, this.req, login);
    if ('refused' in outcome) return void this.refuse(outcome.refused, outcome.info);
    this.actions.success(outcome.user, outcome.info);
  }

  /** Ends the request with Passport's `fail`; returns nothing so a path can `return this.refuse(...)`. */
  private refuse(code: CallbackFailureCode, info?: object): undefined {
    const { t } = translatorFor(this.req, this.settings.pages);
    const { challenge, status } = failure(code, t);
    if (channels.loginRefused.hasSubscribers) channels.loginRefused.publish({ code, status });
    // `info` is what the app's verify gave with its refusal, for Passport's failure handling.
    this.actions.fail(info ? { ...challenge, ...info } : challenge, status);
    return undefined;
  }
}

/** GET and HEAD: the link opened (or a scanner's look); every other method is checked like a POST. */
function isRead(req: HttpRequest): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}
