import type { ServerResponse } from 'node:http';
import { isOtplessError } from '../errors.js';
import { channels, maskDestination } from '../diagnostics.js';
import { MAGIC_LINK_CHANNELS } from '../wire/endpoints.js';
import type { MagicLinkChannel } from '../wire/types.js';
import { functionOption, optionError, optionsObject, refuseUnknownOptions } from '../options.js';
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
import type { StoredFlow } from '../flow/handoff.js';
import { newFlowId } from '../flow/seal.js';
import { isCountryCode, readTypedPhone } from '../contact/phone.js';
import type { CountryCode, PhoneProblem } from '../contact/phone.js';
import { readEmail } from '../contact/email.js';
import type { EmailProblem } from '../contact/email.js';
import { translatorFor } from '../web/messages/index.js';
import type { MessageKey } from '../web/messages/index.js';
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

/** Every option of send(), by name: a key not here is a typo (`failureRedirct`). */
const OPTION_NAMES = Object.keys({
  emailField: true,
  mobileField: true,
  defaultCountry: true,
  channelField: true,
  successRedirect: true,
  failureRedirect: true,
  onError: true,
} satisfies Record<keyof SendOptions, true>);
const MAX_FIELD_LENGTH = 320;
/** What the developer reads (English, in logs and API answers to a wrong client). */
const MESSAGES = {
  mediaType: 'Send the form as application/x-www-form-urlencoded or application/json.',
  noBody:
    'The request has no body: send the e-mail address or mobile number as a form (application/x-www-form-urlencoded) or as JSON (application/json).',
};
/** What a person reads for each way an address can be wrong (keys of the message catalogue). */
const EMAIL_PROBLEMS: Record<EmailProblem, MessageKey> = {
  format: 'send.email',
  hidden: 'send.hidden',
  lookalike: 'send.lookalike',
  international: 'send.international',
};
/** What a person reads for each way a number can be wrong. */
const PHONE_PROBLEMS: Record<PhoneProblem, MessageKey> = {
  format: 'send.phoneFormat',
  countryCode: 'send.phoneCountryCode',
  invalid: 'send.phoneInvalid',
  kind: 'send.phoneKind',
};
/** The sentences of a refusal, in the person's language (src/web/messages/). */
type Say = (key: MessageKey) => string;

/** Builds the send route for a strategy (see `MagicLinkStrategy.send`). */
export function createSendMiddleware(settings: ResolvedStrategyOptions, options: SendOptions): SendMiddleware {
  optionsObject(OWNER, options, 'an object');
  refuseUnknownOptions(OWNER, options, OPTION_NAMES);
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
    const { t } = translatorFor(req, settings.pages);
    // Nothing to plant and nothing to send: say that the body is missing, not that the site is wrong.
    if (hasNoBody(req)) throw invalid(MESSAGES.noBody, undefined);
    // Login CSRF: a page elsewhere must not plant its own pending request in this session.
    if (mayBeCrossSite(req, settings.callbackUrl)) {
      throw new OtplessRequestError(403, 'CROSS_SITE', t('failure.CROSS_SITE'));
    }
    const body = readBody(req, t);
    const session = sessionOf(req);
    if (settings.crossDevice !== 'accept' && !session) throw OtplessSetupError.missingSession();

    const email = readField(body, emailField, 'email', t);
    const mobile = readField(body, mobileField, 'mobile', t);
    if (email === undefined && mobile === undefined) throw invalid(t('send.none'), undefined);

    // Read by the package's one rule for each (contact/), so the limits count what is sent.
    const destinations: LimitedDestination[] = [];
    let address: string | undefined;
    if (email !== undefined) {
      const reading = readEmail(email, { international });
      if (reading.problem) throw invalid(t(emailProblemKey(email, reading.problem)), emailField);
      address = reading.address;
      destinations.push({ value: address, field: emailField });
    }
    let e164: string | undefined;
    if (mobile !== undefined) {
      const reading = readTypedPhone(mobile, defaultCountry);
      if (reading.problem) throw invalid(t(PHONE_PROBLEMS[reading.problem]), mobileField);
      e164 = reading.e164;
      destinations.push({ value: e164, field: mobileField });
    }

    const channel = readChannel(body, channelField, t) ?? settings.channel;

    // After the checks, so invalid input costs nothing.
    const refund = settings.limiter ? await takeSendBudget(settings.limiter, req, destinations) : undefined;
    const now = Date.now();
    const expiresAt = now + (settings.expiry ?? EXPIRY_DEFAULT_SECONDS) * 1000;
    // Our own binding nonce rides in the link: the callback finds this send by it before it
    // verifies anything, whatever the service's request ids turn out to be.
    const flowId = newFlowId();
    const match = settings.handoff?.numberOf(flowId);
    let started: StoredFlow | undefined;
    if (settings.handoff) {
      const askedBy = { ...summarizeDevice(req.headers['user-agent']), at: now };
      // Stored before the link leaves: a phone can open it within a second.
      started = await settings.handoff.start(flowId, { expiresAt, askedBy }, now).catch(async (err: unknown) => {
        await refund?.(); // nothing was sent
        throw new OtplessRequestError(503, 'STORE_UNAVAILABLE', t('send.service'), undefined, asError(err));
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
      throw toSendError(err, emailField, mobileField, t);
    }

    if (settings.handoff && started !== undefined) {
      // The flow learns its send: only a code of this send can approve or deny it.
      const ids = response.requestIds.map((r) => r.value);
      const bound = await settings.handoff.recordSend(flowId, started, ids).catch((err: unknown) => asError(err));
      if (bound !== true) {
        await settings.handoff.discard(flowId).catch(() => undefined);
        const cause = bound === false ? new Error('the flow store lost a new flow') : bound;
        throw new OtplessRequestError(503, 'STORE_UNAVAILABLE', t('send.service'), undefined, cause);
      }
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

/**
 * True for a POST with no body at all: no parsed body with a field, no `Content-Length` above 0,
 * no chunked body. (A parser that ran on an empty body leaves `{}`, or nothing.)
 */
function hasNoBody(req: HttpRequest): boolean {
  const parsed = req.body;
  if (parsed !== undefined && parsed !== null && !(typeof parsed === 'object' && Object.keys(parsed).length === 0)) {
    return false;
  }
  return !(Number(req.headers['content-length'] ?? 0) > 0) && req.headers['transfer-encoding'] === undefined;
}

/**
 * What to tell a person whose address was refused. A plain space is not an "invisible character":
 * it is a space typed, or two contacts in one field ("ada@example.com +14155550123").
 */
function emailProblemKey(typed: string, problem: EmailProblem): MessageKey {
  if (problem !== 'hidden' || !/[ \t]/.test(typed)) return EMAIL_PROBLEMS[problem];
  // Other hidden characters besides the spaces: those are what the person must hear of.
  if (readEmail(typed.replace(/[ \t]+/g, '')).problem === 'hidden') return EMAIL_PROBLEMS.hidden;
  const parts = typed.split(/[\s,;]+/).filter(Boolean);
  const contacts = parts.filter((p) => p.includes('@') || /^\+?[\d().-]{6,}$/.test(p));
  return contacts.length > 1 ? 'send.twoContacts' : 'send.space';
}

/** The parsed body, telling a missing parser apart from a request that simply has no body. */
function readBody(req: HttpRequest, t: Say): Record<string, unknown> {
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
  throw invalid(t('send.none'), undefined);
}

function readField(body: Record<string, unknown>, name: string, kind: 'email' | 'mobile', t: Say): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > MAX_FIELD_LENGTH) throw invalid(t(`send.${kind}`), name);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function invalid(message: string, field: string | undefined): OtplessRequestError {
  return new OtplessRequestError(400, 'INVALID_INPUT', message, field);
}

/** Maps a client failure to what the visitor sees; the client error stays as `cause`. */
function toSendError(err: unknown, emailField: string, mobileField: string, t: Say): OtplessRequestError {
  const cause = asError(err);
  const status = statusForServiceError(err);
  if (status === 400) {
    const field = fieldOf(err, emailField, mobileField);
    const message = t(field === emailField ? 'send.email' : field === mobileField ? 'send.mobile' : 'send.none');
    return new OtplessRequestError(400, 'INVALID_INPUT', message, field, cause);
  }
  return serviceFailure(err, t('send.service'));
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
function readChannel(body: Record<string, unknown>, field: string | undefined, t: Say): MagicLinkChannel | undefined {
  if (field === undefined) return undefined;
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' && (MAGIC_LINK_CHANNELS as readonly string[]).includes(value.toUpperCase())) {
    return value.toUpperCase() as MagicLinkChannel;
  }
  throw invalid(t('send.channel'), field);
}
