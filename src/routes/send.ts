import type { ServerResponse } from 'node:http';
import { channels } from '../diagnostics.js';
import { OtplessRequestError, OtplessSetupError } from '../errors/index.js';
import type { CountryCode } from '../contact/phone.js';
import type { LoginSetup } from '../login/compose.js';
import { isFunction, stringWhere } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
import { sessionOf } from '../session/session.js';
import { countryCode } from '../login/optionTable.js';
import { answered, nodeArgs, setHeader } from '../web/host.js';
import type { HostArgs, HostHandler } from '../web/host.js';
import { translatorFor } from '../web/messages/index.js';
import { isSafeLocalPath, mayBeCrossSite } from '../web/origin.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { redirectSeeOther, redirectWithError, sendJson, wantsJson } from '../web/request.js';
import { readBodyIfNeeded } from './body.js';
import { passBotCheck } from './botGate.js';
import { hasNoBody, invalid, noBodyError, readSendInput } from './sendInput.js';
import type { SendFields, SendInput } from './sendInput.js';
import type { MagicLinkChannel } from '../wire/types.js';
import { sendLink } from './sendUnit.js';
import type { SentLink } from './sendUnit.js';
import { warnIfOriginDiffers, watchSessionCookie } from './warnings.js';

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
  /** Where a browser goes when sending failed; `?error=<code>&field=<field>` is added. */
  failureRedirect?: string;
  /** Handle failures yourself instead (render the form again with the message, say). */
  onError?(err: OtplessRequestError, req: HttpRequest, res: ServerResponse, next: NextFunction): void;
}

/**
 * The middleware `send()` returns: Express and Connect middleware, and a Fastify route handler
 * (`app.post('/auth/magic-link', strategy.send())`, with `otplessFastify()` registered).
 */
export type SendMiddleware = HostHandler<HttpRequest>;

/** What the one mount learns of each send it routes (src/routes/mount.ts): not public. */
export interface SendHooks {
  /** A link went out for this input; called before the answer is written. */
  sent?(req: HttpRequest, input: SendInput, link: SentLink): void;
  /** True for a send again of a send that passed the bot check (the waiting page's resend). */
  checkedBefore?(req: HttpRequest): boolean;
  /**
   * For a send again: the channel it goes by (chosen on the waiting page, within the strategy's
   * `fallbackChannel`), and the flow it joins while that flow still waits.
   */
  again?(req: HttpRequest): { channel?: MagicLinkChannel | undefined; sameFlow?: string | undefined } | undefined;
}

const OWNER = 'send()';

const LOCAL_PATH = "a path on this site, such as '/check-inbox'";

/** Every option of `send()`: its check, default and line in docs/strategy.md. */
export const SEND_OPTIONS = {
  emailField: {
    check: (value) => (value ?? 'email') as string,
    default: 'email',
    doc: 'the body field read for the e-mail address',
  },
  mobileField: {
    check: (value) => (value ?? 'mobile') as string,
    default: 'mobile',
    doc: 'the body field read for the mobile number; it needs its country code unless `defaultCountry` is set (spaces, dashes, dots and brackets are fine)',
  },
  defaultCountry: {
    check: countryCode,
    defaultDoc: "the strategy's",
    doc: "the strategy's `defaultCountry` for this route only (a site per country, say)",
  },
  channelField: {
    check: stringWhere((field) => field !== '', "the name of a body field, such as 'channel'"),
    defaultDoc: 'none',
    doc: "a body field in which the visitor may choose `WHATSAPP` or `SMS` (any case); a bad value is 400 `INVALID_INPUT` on that field. Unset: the strategy's `channel` decides",
  },
  successRedirect: {
    check: stringWhere(isSafeLocalPath, LOCAL_PATH),
    defaultDoc: 'none',
    doc: 'where a browser goes (303) once the link is sent; JSON clients always get JSON',
  },
  failureRedirect: {
    check: stringWhere(isSafeLocalPath, LOCAL_PATH),
    defaultDoc: 'none',
    doc: 'where a browser goes when sending failed, with `?error=<code>&field=<field>`',
  },
  onError: {
    check: isFunction<SendOptions['onError']>(),
    defaultDoc: 'none',
    doc: '`(err: OtplessRequestError, req, res, next)`: render the form again yourself',
  },
} satisfies OptionTable<SendOptions>;

/** Builds the send route for a strategy (see `MagicLinkStrategy.send`). */
export function createSendMiddleware(settings: LoginSetup, given: SendOptions, hooks: SendHooks = {}): SendMiddleware {
  // Own keys only (a polluted Object.prototype is no option); a misspelt one is refused.
  const options = checkOptionsArgument(SEND_OPTIONS, OWNER, given, 'an object');
  const fields: SendFields = {
    emailField: options.emailField,
    mobileField: options.mobileField,
    channelField: options.channelField,
    defaultCountry: options.defaultCountry ?? settings.defaultCountry,
    allowInternationalEmail: settings.allowInternationalEmail,
  };

  const respondError = (err: OtplessRequestError, req: HttpRequest, res: ServerResponse, next: NextFunction): void => {
    if (channels.sendRefused.hasSubscribers) {
      channels.sendRefused.publish({
        code: err.code,
        status: err.status,
        ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
      });
    }
    // On every answer to a refused send, whoever writes it: when a send is allowed again.
    if (err.retryAfterSeconds !== undefined && !answered(res)) setHeader(res, 'Retry-After', err.retryAfterSeconds);
    if (options.onError) return options.onError(err, req, res, next);
    if (wantsJson(req)) return sendJson(res, err.status, err);
    if (options.failureRedirect) return redirectWithError(res, options.failureRedirect, err.code, err.field);
    next(err);
  };

  async function run(req: HttpRequest, res: ServerResponse): Promise<void> {
    const words = translatorFor(req, settings.pages);
    const { t } = words;
    // Nothing to plant and nothing to send: say that the body is missing, not that the site is wrong.
    // A person's form always has fields: an empty one is "enter an address", not a developer's message.
    if (hasNoBody(req)) throw wantsJson(req) ? noBodyError() : invalid(t('send.none'), undefined);
    // Login CSRF: a page elsewhere must not plant its own pending request in this session.
    if (mayBeCrossSite(req, settings.callbackUrl)) {
      throw new OtplessRequestError(403, 'CROSS_SITE', t('failure.CROSS_SITE'));
    }
    warnIfOriginDiffers(req, settings.callbackUrl);
    const input = readSendInput(req, fields, t);
    const again = hooks.again?.(req);
    if (again?.channel !== undefined && input.e164 !== undefined) input.channel = again.channel;
    if (!hooks.checkedBefore?.(req)) await passBotCheck(settings.botCheck, req, t);
    const session = sessionOf(req);
    if (settings.crossDevice !== 'accept' && !session) throw OtplessSetupError.missingSession();
    const link = await sendLink({
      settings,
      req,
      session,
      input,
      fields,
      t,
      words,
      ...(again?.sameFlow !== undefined ? { sameFlow: again.sameFlow } : {}),
    });
    if (session) watchSessionCookie(req, res);
    hooks.sent?.(req, input, link);
    if (options.successRedirect && !wantsJson(req)) return redirectSeeOther(res, options.successRedirect);
    // The number to show the person, who types it on the device where the link opens.
    const { sent, match, expiresAt } = link;
    sendJson(res, 200, match ? { sent, match, expiresAt: new Date(expiresAt).toISOString() } : { sent });
  }

  return function sendMagicLink(...given: HostArgs<HttpRequest>) {
    const [req, res, next] = nodeArgs(...given);
    // A form or JSON body no parser read is read here: the route needs no body parser, and a
    // JSON body sent to a route whose app parses only forms (or the other way round) is read too.
    readBodyIfNeeded(req)
      .then(() => run(req, res))
      .catch((err: unknown) => {
        if (err instanceof OtplessRequestError) respondError(err, req, res, next);
        else next(err);
      })
      // An onError (or render) that throws goes to the app's error handler, never unhandled.
      .catch(next);
  };
}
