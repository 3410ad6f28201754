import type { ServerResponse } from 'node:http';
import { isOtplessError } from '../errors.js';
import { channels, maskDestination } from '../diagnostics.js';
import { MAGIC_LINK_CHANNELS } from '../wire/endpoints.js';
import type { MagicLinkChannel } from '../wire/types.js';
import { functionOption, optionError } from '../options.js';
import { EXPIRY_DEFAULT_SECONDS } from '../wire/endpoints.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { redirectSeeOther, sendJson, wantsJson } from '../web/request.js';
import { sessionOf } from '../session/session.js';
import { answered, nodeArgs, setHeader } from '../web/host.js';
import type { HostArgs, HostHandler } from '../web/host.js';
import type { ResolvedStrategyOptions } from './options.js';
import { rememberPending } from '../session/pending.js';
import { mayBeCrossSite } from '../web/origin.js';
import { isSafeLocalPath } from '../web/origin.js';
import { serviceFailure, serviceFieldOf, statusForServiceError } from './failures.js';
import { OtplessRequestError } from '../errors.js';
import { OtplessSetupError } from '../errors.js';
import { summarizeDevice } from '../flow/device.js';
import { withFlowParam } from '../flow/handoff.js';
import { newFlowId, newMatchNumber } from '../flow/seal.js';
import { isCountryCode, readTypedPhone } from '../contact/phone.js';
import type { CountryCode, PhoneProblem } from '../contact/phone.js';
import { readEmail } from '../contact/email.js';
import type { EmailProblem } from '../contact/email.js';
import { COUNTRY_EXPECTED } from './options.js';
import { takeSendBudget } from './sendLimits.js';
import type { LimitedDestination } from './sendLimits.js';

/**
 * Options of `strategy.send()`. Posts from other sites are refused (403 `CROSS_SITE`): a browser
 * must name this site in `Origin` / `Sec-Fetch-Site`, and a client that names none must send JSON.
 */
export interface SendOptions {
  /** Body field with the e-mail address. Default 'email'. */
  emailField?: string;
  /** Body field with the mobile number (`+` and the country code, or national in `defaultCountry`). Default 'mobile'. */
  mobileField?: string;
  /** The strategy's `defaultCountry` for this route (a site per country, say). */
  defaultCountry?: CountryCode;
  /**
   * Body field in which the visitor may choose the channel of a mobile number ('WHATSAPP' or
   * 'SMS'). Read only when set: by default the strategy's `channel` option decides.
   */
  channelField?: string;
  /** Where a browser (a form post, not a JSON client) goes once the link is sent, e.g. '/check-inbox'. */
  successRedirect?: string;
  /** Where a browser goes when sending failed; `?error=<reason>&field=<field>` is added. */
  failureRedirect?: string;
  /** Handle failures yourself instead (render the form again with the message, say). */
  onError?(err: OtplessRequestError, req: HttpRequest, res: ServerResponse, next: NextFunction): void;
}

/**
 * The middleware `send()` returns: Express and Connect middleware, and a Fastify route handler
 * (`app.post('/auth/magic-link', strategy.send())`, with `otplessFastify()` registered).
 */
export type SendMiddleware = HostHandler<HttpRequest>;

const OWNER = 'send()';
const MAX_FIELD_LENGTH = 320;
const MESSAGES = {
  none: 'Enter an e-mail address or a mobile number.',
  email: 'Enter a valid e-mail address, such as name@example.com.',
  mobile: 'Enter a valid mobile number with its country code, such as +14155550123.',
  service: 'The sign-in link could not be sent right now. Please try again in a moment.',
  crossSite: 'This sign-in request did not come from this site.',
  mediaType: 'Send the form as application/x-www-form-urlencoded or application/json.',
};
/** What a person reads for each way an address can be wrong. */
const EMAIL_PROBLEMS: Record<EmailProblem, string> = {
  format: MESSAGES.email,
  hidden: 'Enter the e-mail address again, typed rather than pasted: it contains invisible characters.',
  lookalike:
    'Enter the e-mail address again: it contains look-alike characters (full-width letters, or letters of different alphabets).',
  international: 'Enter the e-mail address in plain letters (a-z, digits, dots), such as name@example.com.',
};
/** What a person reads for each way a number can be wrong. */
const PHONE_PROBLEMS: Record<PhoneProblem, string> = {
  format: 'Enter the mobile number in digits, such as +14155550123 (spaces, dashes and brackets are fine).',
  countryCode: 'Enter the mobile number with its country code: add + and the code first, such as +1 415 555 0123.',
  invalid: 'Enter a valid mobile number: this one has too many or too few digits for its country, or is not in use.',
  kind: 'Enter a mobile number: premium-rate, toll-free and shared-cost numbers cannot get sign-in links.',
};

/** Builds the send route for a strategy (see `MagicLinkStrategy.send`). */
export function createSendMiddleware(settings: ResolvedStrategyOptions, options: SendOptions): SendMiddleware {
  const emailField = options.emailField ?? 'email';
  const mobileField = options.mobileField ?? 'mobile';
  for (const key of ['successRedirect', 'failureRedirect'] as const) {
    const value = options[key];
    if (value !== undefined && !isSafeLocalPath(value)) {
      throw optionError(OWNER, key, "a path on this site, such as '/check-inbox'");
    }
  }
  functionOption(OWNER, options, 'onError');
  if (options.defaultCountry !== undefined && !isCountryCode(options.defaultCountry)) {
    throw optionError(OWNER, 'defaultCountry', COUNTRY_EXPECTED);
  }
  const defaultCountry = options.defaultCountry ?? settings.defaultCountry;
  if (options.channelField !== undefined && (typeof options.channelField !== 'string' || options.channelField === '')) {
    throw optionError(OWNER, 'channelField', "the name of a body field, such as 'channel'");
  }
  const channelField = options.channelField;
  const international = settings.allowInternationalEmail;

  const respondError = (err: OtplessRequestError, req: HttpRequest, res: ServerResponse, next: NextFunction): void => {
    if (channels.sendRefused.hasSubscribers) {
      channels.sendRefused.publish({
        code: err.reason,
        status: err.status,
        ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
      });
    }
    // On every answer to a refused send, whoever writes it: when a send is allowed again.
    if (err.retryAfterSeconds !== undefined && !answered(res)) setHeader(res, 'Retry-After', err.retryAfterSeconds);
    if (options.onError) return options.onError(err, req, res, next);
    if (wantsJson(req)) return sendJson(res, err.status, err);
    if (options.failureRedirect) {
      const target = new URL(options.failureRedirect, 'http://same-site.invalid');
      target.searchParams.set('error', err.reason);
      if (err.field) target.searchParams.set('field', err.field);
      return redirectSeeOther(res, `${target.pathname}${target.search}`);
    }
    next(err);
  };

  return function sendMagicLink(...given: HostArgs<HttpRequest>) {
    const [req, res, next] = nodeArgs(...given);
    run(req, res)
      .catch((err: unknown) => {
        if (err instanceof OtplessRequestError) respondError(err, req, res, next);
        else next(err);
      })
      // An onError (or render) that throws goes to the app's error handler, never unhandled.
      .catch(next);
  };

  async function run(req: HttpRequest, res: ServerResponse): Promise<void> {
    // Login CSRF: a page elsewhere must not plant its own pending request in this session.
    if (mayBeCrossSite(req, settings.callbackUrl)) {
      throw new OtplessRequestError(403, 'CROSS_SITE', MESSAGES.crossSite);
    }
    const body = readBody(req);
    const session = sessionOf(req);
    if (settings.crossDevice !== 'accept' && !session) throw OtplessSetupError.missingSession();

    const email = readField(body, emailField, 'email');
    const mobile = readField(body, mobileField, 'mobile');
    if (email === undefined && mobile === undefined) throw invalid(MESSAGES.none, undefined);

    // Read by the package's one rule for each (contact/), so the limits count what is sent.
    const destinations: LimitedDestination[] = [];
    let address: string | undefined;
    if (email !== undefined) {
      const reading = readEmail(email, { international });
      if (reading.problem) throw invalid(EMAIL_PROBLEMS[reading.problem], emailField);
      address = reading.address;
      destinations.push({ value: address, field: emailField });
    }
    let e164: string | undefined;
    if (mobile !== undefined) {
      const reading = readTypedPhone(mobile, defaultCountry);
      if (reading.problem) throw invalid(PHONE_PROBLEMS[reading.problem], mobileField);
      e164 = reading.e164;
      destinations.push({ value: e164, field: mobileField });
    }

    const channel = readChannel(body, channelField) ?? settings.channel;

    // After the checks, so invalid input costs nothing.
    const refund = settings.limiter ? await takeSendBudget(settings.limiter, req, destinations) : undefined;
    const now = Date.now();
    const expiresAt = now + (settings.expiry ?? EXPIRY_DEFAULT_SECONDS) * 1000;
    // Our own binding nonce rides in the link: the callback finds this send by it before it
    // verifies anything, whatever the service's request ids turn out to be.
    const flowId = newFlowId();
    const match = settings.handoff ? newMatchNumber() : undefined;
    if (settings.handoff && match) {
      const asking = { ...summarizeDevice(req.headers['user-agent']), at: now };
      // Stored before the link leaves: a phone can open it within a second.
      await settings.handoff.start(flowId, { m: match, exp: expiresAt, a: asking }, now).catch(async (err: unknown) => {
        await refund?.(); // nothing was sent
        throw new OtplessRequestError(503, 'STORE_UNAVAILABLE', MESSAGES.service, undefined, asError(err));
      });
    }
    let response;
    try {
      response = await settings.client.sendMagicLink({
        ...(address !== undefined ? { email: address, allowInternationalEmail: international } : {}),
        ...(e164 !== undefined ? { mobileNumber: e164 } : {}),
        // The service's default is WhatsApp; sent only when chosen, and only with a number.
        ...(e164 !== undefined && channel !== undefined ? { channel } : {}),
        redirectUri: withFlowParam(settings.callbackUrl, flowId),
        ...(settings.expiry !== undefined ? { expiry: settings.expiry } : {}),
      });
    } catch (err) {
      await settings.handoff?.discard(flowId).catch(() => undefined);
      // The service answered and refused: nothing was sent, so nothing is counted. After a
      // timeout or a broken connection a message may have gone out: those stay counted.
      if (refund && (isOtplessError(err, 'API_ERROR') || isOtplessError(err, 'INVALID_INPUT'))) await refund();
      throw toSendError(err, emailField, mobileField);
    }

    if (session) {
      const sentTo = destinations.map((d) => d.value);
      rememberPending(session, { flowId, requestIds: response.requestIds, destinations: sentTo, expiresAt }, now);
    }
    // Only what the visitor needs: never a request id or anything that could finish the login.
    const sent = response.requestIds.map((r) => {
      const via = r.type === 'MOBILE' ? (channel ?? 'WHATSAPP') : 'EMAIL';
      return r.destinationUri
        ? { type: r.type, channel: via, destinationUri: r.destinationUri }
        : { type: r.type, channel: via };
    });
    if (channels.linkSent.hasSubscribers) {
      channels.linkSent.publish({
        types: response.requestIds.map((r) => r.type),
        ...(e164 !== undefined ? { channel: channel ?? 'WHATSAPP' } : {}),
        to: destinations.map((d) => maskDestination(d.value)),
        handoff: settings.handoff !== undefined,
      });
    }
    if (options.successRedirect && !wantsJson(req)) return redirectSeeOther(res, options.successRedirect);
    // The number to show the person, who types it on the device where the link opens.
    sendJson(res, 200, match ? { sent, match, expiresAt: new Date(expiresAt).toISOString() } : { sent });
  }
}

/** The parsed body, telling a missing parser apart from a request that simply has no body. */
function readBody(req: HttpRequest): Record<string, unknown> {
  if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) return req.body as Record<string, unknown>;
  // The media type alone, without parameters: `application/json-seq` is not JSON.
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (req.body === undefined && hasBody) {
    if (type === 'application/json' || type === 'application/x-www-form-urlencoded') {
      throw OtplessSetupError.missingBodyParser();
    }
    // Anything else is the caller's mistake, not the app's setup.
    throw new OtplessRequestError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.mediaType);
  }
  if (req.body === undefined || req.body === null || (typeof req.body === 'string' && req.body === '')) return {};
  throw invalid(MESSAGES.none, undefined);
}

function readField(body: Record<string, unknown>, name: string, kind: 'email' | 'mobile'): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > MAX_FIELD_LENGTH) throw invalid(MESSAGES[kind], name);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function invalid(message: string, field: string | undefined): OtplessRequestError {
  return new OtplessRequestError(400, 'INVALID_INPUT', message, field);
}

/** Maps a client failure to what the visitor sees; the client error stays as `cause`. */
function toSendError(err: unknown, emailField: string, mobileField: string): OtplessRequestError {
  const cause = asError(err);
  const status = statusForServiceError(err);
  if (status === 400) {
    const field = fieldOf(err, emailField, mobileField);
    const message = field === emailField ? MESSAGES.email : field === mobileField ? MESSAGES.mobile : MESSAGES.none;
    return new OtplessRequestError(400, 'INVALID_INPUT', message, field, cause);
  }
  return serviceFailure(err, MESSAGES.service);
}

/** Which form field an input error is about: the client's field name, or the service's error code. */
function fieldOf(err: unknown, emailField: string, mobileField: string): string | undefined {
  if (isOtplessError(err, 'INVALID_INPUT')) {
    const field = (err as { field?: string }).field;
    if (field === 'email') return emailField;
    if (field === 'mobileNumber') return mobileField;
    return undefined;
  }
  const kind = serviceFieldOf(err);
  return kind === 'email' ? emailField : kind === 'mobile' ? mobileField : undefined;
}

function asError(err: unknown): Error | undefined {
  return err instanceof Error ? err : undefined;
}

/** The channel the visitor chose, when the app lets them (`channelField`); a bad value is a 400 on that field. */
function readChannel(body: Record<string, unknown>, field: string | undefined): MagicLinkChannel | undefined {
  if (field === undefined) return undefined;
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' && (MAGIC_LINK_CHANNELS as readonly string[]).includes(value.toUpperCase())) {
    return value.toUpperCase() as MagicLinkChannel;
  }
  throw invalid('Choose WhatsApp or SMS.', field);
}
