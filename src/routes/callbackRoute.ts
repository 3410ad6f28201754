import type { ServerResponse } from 'node:http';
import { OtplessRequestError } from '../errors/index.js';
import type { LoginSetup } from '../login/compose.js';
import { removeSessionValue, sessionOf } from '../session/session.js';
import { CALLBACK_FAILURES } from '../login/failures.js';
import { isSafeLocalPath } from '../web/origin.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { redirectSeeOther, redirectWithError, sendJson, wantsJson } from '../web/request.js';
import type { LoginPaths } from './paths.js';
import { showErrorPage } from './pageRoutes.js';
import type { PagePaths } from './pageRoutes.js';

/** What Passport's `authenticate` gave the mount's callback. */
export interface PassportResult {
  err: unknown;
  user: unknown;
  info: unknown;
  status: unknown;
}

/**
 * Passport as the mount uses it, on one host: Express and Connect run `passport`, Fastify runs
 * @fastify/passport. `authenticate` calls `done` once, unless a page of the strategy answered
 * the request itself (the approval and confirm pages).
 */
export interface PassportRunner {
  authenticate(req: HttpRequest, res: ServerResponse, next: NextFunction, done: (result: PassportResult) => void): void;
  logIn(req: HttpRequest, user: unknown): Promise<void>;
}

/** What the callback route needs to know of the mount. */
export interface CallbackSettings {
  setup: LoginSetup;
  paths: LoginPaths;
  pages: PagePaths;
  successRedirect: string;
  failureRedirect: string | undefined;
}

/**
 * The callback route of the mount: Passport verifies; the mount then logs in and redirects (to
 * the session's safe `returnTo`, else `successRedirect`), or answers the refusal: JSON to a
 * JSON client, the waiting page while a handoff is still pending, `failureRedirect` or the
 * error page to a browser. Redirects are written by the package (303), so every host works.
 */
export function runCallback(
  settings: CallbackSettings,
  passport: PassportRunner,
  req: HttpRequest,
  res: ServerResponse,
  next: NextFunction,
): void {
  passport.authenticate(req, res, next, (result) => {
    answer(settings, passport, req, res, result).catch(next);
  });
}

async function answer(
  settings: CallbackSettings,
  passport: PassportRunner,
  req: HttpRequest,
  res: ServerResponse,
  { err, user, info, status }: PassportResult,
): Promise<void> {
  if (err) return failWithError(settings, req, res, err);
  if (!user) {
    const code = codeOf(info);
    const given = typeof status === 'number' && status >= 400 && status < 600 ? status : 401;
    // The asking browser came back before the phone approved: it goes on waiting.
    if (code === 'FLOW_PENDING' && !wantsJson(req)) return redirectSeeOther(res, settings.paths.waiting);
    const message = messageOf(info) ?? CALLBACK_FAILURES.INVALID_CODE.message;
    if (wantsJson(req)) return sendJson(res, given, { error: { code, message } });
    return showFailure(settings, req, res, given, code, message);
  }
  await passport.logIn(req, user);
  const session = sessionOf(req);
  const returnTo = session?.returnTo;
  if (session) removeSessionValue(session, 'returnTo');
  const target = isSafeLocalPath(returnTo) ? returnTo : settings.successRedirect;
  if (wantsJson(req)) return sendJson(res, 200, { signedIn: true, redirect: target });
  redirectSeeOther(res, target);
}

/**
 * An error of the callback: the service's or a store's failure (our 502/503/504) is answered as a
 * failure; anything else (the app's `verify` threw, a setup mistake) goes to the app's error
 * handler, where its developer looks.
 */
async function failWithError(
  settings: CallbackSettings,
  req: HttpRequest,
  res: ServerResponse,
  err: unknown,
): Promise<void> {
  if (!(err instanceof OtplessRequestError)) throw err;
  if (wantsJson(req)) return sendJson(res, err.status, err);
  await showFailure(settings, req, res, err.status, err.code, err.message);
}

function showFailure(
  settings: CallbackSettings,
  req: HttpRequest,
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): Promise<void> | void {
  const redirect = settings.failureRedirect ?? settings.pages.error;
  if (redirect) return redirectWithError(res, redirect, code);
  return showErrorPage(settings.setup, settings.paths, req, res, { status, code, message });
}

function codeOf(info: unknown): string {
  const code = (info as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'INVALID_CODE';
}

function messageOf(info: unknown): string | undefined {
  const message = (info as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}
