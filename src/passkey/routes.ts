import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { channels } from '../diagnostics.js';
import { OtplessRequestError } from '../errors/index.js';
import { LOGIN_VERIFY } from '../login/compose.js';
import type { LoginSetup, LoginVerifier } from '../login/compose.js';
import { removeSessionValue, sessionOf, setSessionValue } from '../session/session.js';
import { writeAnswer } from '../web/host.js';
import { translatorFor } from '../web/messages/index.js';
import { isSafeLocalPath, isSameOriginPost } from '../web/origin.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { mediaType, redirectSeeOther, requestCookie, sendJson, wantsJson } from '../web/request.js';
import { authenticationOptions } from './authenticationOptions.js';
import { authenticationVerify } from './authenticationVerify.js';
import { PASSKEY_SCRIPT } from './browserScript.js';
import type { PasskeyContext } from './context.js';
import { dropGrant, grantRegistration, hasGrant, readGrant } from './grant.js';
import { verifyPasskeyUser } from './login.js';
import { registerManager } from './manage.js';
import { showOfferPage } from './offerPage.js';
import { checkPasskeyOptions } from './options.js';
import { registrationOptions } from './registrationOptions.js';
import { registrationVerify } from './registrationVerify.js';

/** The passkey routes' paths: `<base>/passkey...`, beside the mount's others. */
export interface PasskeyPaths {
  script: string;
  offer: string;
  registerOptions: string;
  register: string;
  notNow: string;
  loginOptions: string;
  login: string;
}

/** Logs a user in on the host (Passport's `req.logIn`, or @fastify/passport's). */
export interface PasskeyLogIn {
  (req: HttpRequest, user: unknown): Promise<void>;
}

/** A JSON answer: status and body, and any headers more (a ceremony's cookie). */
type Answer = [number, unknown] | [number, unknown, Record<string, string>];

type Handler = (req: HttpRequest, res: ServerResponse, next: NextFunction) => void;

/** The passkey part of the mount: its routes, and the hooks the sign-in page and callback call. */
export interface PasskeyRoutes {
  paths: PasskeyPaths;
  /** The route for a path and method; 'method' when the path is one of these but not the method. */
  route(path: string, method: string | undefined): Handler | 'method' | undefined;
  /** The methods a path answers, for `Allow` (undefined: not a passkey path). */
  allowed(path: string): string | undefined;
  /** What the sign-in page draws: the passkey button and its script. */
  signIn(): { scriptUrl: string; optionsUrl: string; verifyUrl: string };
  /** After a link login: the offer page's path (and the target kept for after it), or `target`. */
  afterLogin(req: HttpRequest, target: string): Promise<string>;
}

/** The cookie that keeps "Not now" for a browser. */
const NOT_NOW_COOKIE = 'otpless_passkey_later';
const NEXT_KEY = 'otplessPasskeyNext';

/**
 * Builds the passkey routes of a mount when `passkeys` is on (else `undefined`). The options are
 * checked here, once: a callback URL on an IP address is refused (`PASSKEY_NEEDS_DOMAIN`).
 */
export function createPasskeyRoutes(
  owner: string,
  setup: LoginSetup,
  given: unknown,
  base: string,
  successRedirect: string,
  logIn: PasskeyLogIn,
  readBody: (req: HttpRequest) => Promise<void>,
): PasskeyRoutes | undefined {
  const settings = checkPasskeyOptions(owner, given, setup.callbackUrl, setup.store);
  if (!settings) return undefined;
  const verify = (setup as { [LOGIN_VERIFY]?: LoginVerifier })[LOGIN_VERIFY];
  if (typeof verify !== 'function') throw new TypeError(`${owner}: the first argument must be a MagicLinkStrategy`);
  const ctx: PasskeyContext = {
    settings,
    store: setup.store,
    locale: setup.pages,
    cookiePath: `${base}/passkey`,
    handleKey: createHmac('sha256', setup.secrets.recordKey.key).update('passkey user handles v1').digest(),
  };
  registerManager(setup, settings.credentials);
  setup.offersPasskeys = true;
  const origin = settings.origin;
  const paths: PasskeyPaths = {
    script: `${base}/passkey.js`,
    offer: `${base}/passkey`,
    registerOptions: `${base}/passkey/register-options`,
    register: `${base}/passkey/register`,
    notNow: `${base}/passkey/not-now`,
    loginOptions: `${base}/passkey/login-options`,
    login: `${base}/passkey/login`,
  };
  const nextOf = (req: HttpRequest): string => {
    const next = sessionOf(req)?.[NEXT_KEY];
    return isSafeLocalPath(next) ? next : successRedirect;
  };

  /** A JSON POST of this site: a cross-site page can neither attach a passkey nor sign someone in. */
  const json =
    (work: (req: HttpRequest) => Promise<Answer>, onRefused?: (code: string) => void): Handler =>
    (req, res, next) => {
      const refused = checkPost(req, setup.callbackUrl, true);
      if (refused) return sendJson(res, refused.status, refused);
      readBody(req)
        .then(() => {
          if (typeof req.body !== 'object' || req.body === null) req.body = {};
          return work(req);
        })
        .then(([status, body, headers]) => sendJson(res, status, body, headers))
        .catch((err: unknown) => {
          if (!(err instanceof OtplessRequestError)) return next(err);
          onRefused?.(err.code);
          sendJson(res, err.status, err);
        });
    };

  const handlers: Record<keyof PasskeyPaths, Handler> = {
    script(_req, res) {
      writeAnswer(
        res,
        200,
        {
          'Content-Type': 'text/javascript; charset=utf-8',
          'Cache-Control': 'public, max-age=3600',
          'X-Content-Type-Options': 'nosniff',
        },
        PASSKEY_SCRIPT,
      );
    },
    offer(req, res, next) {
      const signedIn = Boolean((req as { user?: unknown }).user);
      if (!signedIn || !hasGrant(req)) return redirectSeeOther(res, nextOf(req));
      readGrant(ctx.store, req)
        .then(() => {
          if (channels.passkeyOffered.hasSubscribers)
            channels.passkeyOffered.publish({ windowMs: settings.offerWindowMs });
          showOfferPage(setup, req, res, {
            scriptUrl: origin + paths.script,
            optionsUrl: paths.registerOptions,
            verifyUrl: paths.register,
            notNowUrl: paths.notNow,
            next: nextOf(req),
          });
        })
        .catch((err: unknown) => (err instanceof OtplessRequestError ? redirectSeeOther(res, nextOf(req)) : next(err)));
    },
    registerOptions: json(async (req) => {
      const { options, cookie } = await registrationOptions(ctx, req);
      return [200, options, { 'Set-Cookie': cookie }];
    }),
    register: json(async (req) => {
      await registrationVerify(ctx, req, req.body);
      const redirect = nextOf(req);
      removeSessionValue(sessionOf(req)!, NEXT_KEY);
      return [200, { registered: true, redirect }];
    }),
    notNow(req, res, next) {
      const refused = checkPost(req, setup.callbackUrl, false);
      if (refused)
        return wantsJson(req) ? sendJson(res, refused.status, refused) : writeAnswer(res, 403, {}, refused.message);
      const redirect = nextOf(req);
      dropGrant(ctx.store, req)
        .then(() => {
          const session = sessionOf(req);
          if (session) removeSessionValue(session, NEXT_KEY);
          const secure = origin.startsWith('https:') ? '; Secure' : '';
          const cookie = `${NOT_NOW_COOKIE}=1; Max-Age=${Math.floor(settings.notNowMs / 1000)}; Path=/; HttpOnly; SameSite=Lax${secure}`;
          writeAnswer(res, 303, { Location: redirect, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' }, undefined);
        })
        .catch(next);
    },
    loginOptions: json(async (req) => {
      const { options, cookie } = await authenticationOptions(ctx, req);
      return [200, options, { 'Set-Cookie': cookie }];
    }),
    login: json(
      async (req) => {
        const credential = await authenticationVerify(ctx, req, req.body);
        const { user, info } = await verifyPasskeyUser(setup, verify, req, credential);
        if (!user) {
          // The app's verify refused the user (as after a link): the callback's USER_REFUSED.
          const message =
            typeof info?.message === 'string'
              ? info.message
              : translatorFor(req, setup.pages).t('failure.USER_REFUSED');
          if (channels.passkeyLogin.hasSubscribers)
            channels.passkeyLogin.publish({ outcome: 'refused', code: 'USER_REFUSED' });
          return [401, { error: { code: 'USER_REFUSED', message } }];
        }
        const returnTo = (req.body as { returnTo?: unknown }).returnTo;
        const kept = sessionOf(req)?.returnTo;
        await logIn(req, user);
        const session = sessionOf(req);
        if (session) removeSessionValue(session, 'returnTo');
        if (channels.passkeyLogin.hasSubscribers) channels.passkeyLogin.publish({ outcome: 'succeeded' });
        const redirect = isSafeLocalPath(returnTo) ? returnTo : isSafeLocalPath(kept) ? kept : successRedirect;
        return [200, { signedIn: true, redirect }];
      },
      (code) => {
        if (channels.passkeyLogin.hasSubscribers) channels.passkeyLogin.publish({ outcome: 'refused', code });
      },
    ),
  };

  const byPath = new Map<string, { method: 'GET' | 'POST'; handler: Handler }>(
    (Object.keys(paths) as (keyof PasskeyPaths)[]).map((name) => [
      paths[name],
      { method: name === 'script' || name === 'offer' ? 'GET' : 'POST', handler: handlers[name] },
    ]),
  );

  return {
    paths,
    route(path, method) {
      const found = byPath.get(path);
      if (!found) return undefined;
      const read = method === 'GET' || method === 'HEAD';
      return (found.method === 'GET' ? read : method === 'POST') ? found.handler : 'method';
    },
    allowed(path) {
      const found = byPath.get(path);
      return found === undefined ? undefined : found.method === 'GET' ? 'GET, HEAD' : 'POST';
    },
    signIn: () => ({ scriptUrl: origin + paths.script, optionsUrl: paths.loginOptions, verifyUrl: paths.login }),
    async afterLogin(req, target) {
      if (wantsJson(req) || saidNotNow(req)) return target;
      if (!(await grantRegistration(ctx.store, req, settings.offerWindowMs))) return target;
      setSessionValue(sessionOf(req)!, NEXT_KEY, target);
      return paths.offer;
    },
  };
}

/** True when this browser said "Not now" lately (its cookie). */
function saidNotNow(req: HttpRequest): boolean {
  return requestCookie(req, NOT_NOW_COOKIE) === '1';
}

/** A refusal of a POST that is not this site's own (or, for `json`, not JSON), else undefined. */
function checkPost(req: HttpRequest, callbackUrl: string, json: boolean): OtplessRequestError | undefined {
  const { t } = translatorFor(req);
  if (!isSameOriginPost(req, callbackUrl)) return new OtplessRequestError(403, 'CROSS_SITE', t('failure.CROSS_SITE'));
  const type = mediaType(req);
  if (json && type !== 'application/json') {
    return new OtplessRequestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the passkey answer as application/json.');
  }
  return undefined;
}
