import type { ServerResponse } from 'node:http';
import type { OtplessRequestError } from '../errors/index.js';
import type { LoginSetup } from '../login/compose.js';
import { isSafeLocalPath } from '../web/origin.js';
import { errorView, showPage, signInView, waitingView } from '../web/pages.js';
import type { PageContext } from '../web/pages.js';
import type { HttpRequest } from '../web/request.js';
import { redirectSeeOther } from '../web/request.js';
import type { LoginPaths } from './paths.js';
import { flowStatusOf } from './status.js';
import { readWaiting } from './waitingRecord.js';

/** The app's own pages, by path, in place of the package's (as Auth.js's `pages`). */
export interface PagePaths {
  /** The app's sign-in page: the mount serves none, and a refused send goes back to it with `?error=&field=`. */
  signIn?: string;
  /** The app's error page: a failed callback goes to it with `?error=<code>`. */
  error?: string;
}

/** What the sign-in page asks for. */
export interface SignInChoices {
  contacts: 'email' | 'mobile' | 'both';
  channelChoice: boolean;
  /** The mount's `defaultCountry`, when it gives one (else the strategy's). */
  defaultCountry?: string | undefined;
  /** With passkeys on: "Sign in with a passkey" and the browser's passkey autofill. */
  passkey?: { scriptUrl: string; optionsUrl: string; verifyUrl: string };
}

/** Seconds before the waiting page offers to send the link again. */
export const RESEND_AFTER_SECONDS = 30;

function context(setup: LoginSetup, req: HttpRequest, res: ServerResponse): PageContext {
  return { req, res, options: setup.pages };
}

/** The sign-in page, with what was typed and the refusal next to its field when a send failed. */
export function showSignInPage(
  setup: LoginSetup,
  paths: LoginPaths,
  choices: SignInChoices,
  req: HttpRequest,
  res: ServerResponse,
  refused?: { err: OtplessRequestError; values: Readonly<Record<string, unknown>> },
): Promise<void> {
  const returnTo = refused ? refused.values.returnTo : queryValue(req, 'returnTo');
  const values = refused?.values ?? {};
  const text = (name: string): string => (typeof values[name] === 'string' ? values[name] : '');
  const field = refused?.err.field;
  const channel = text('channel').toUpperCase();
  const view = signInView(context(setup, req, res), {
    action: paths.send,
    contacts: choices.contacts === 'both' ? ['email', 'mobile'] : [choices.contacts],
    ...(choices.channelChoice ? { channels: ['WHATSAPP', 'SMS'] as const, names: { channel: 'channel' } } : {}),
    values: {
      email: text('email'),
      mobile: text('mobile'),
      ...(channel === 'WHATSAPP' || channel === 'SMS' ? { channel } : {}),
    },
    status: refused?.err.status ?? 200,
    ...(refused
      ? { error: { message: refused.err.message, ...(field === 'email' || field === 'mobile' ? { field } : {}) } }
      : {}),
    hidden: isSafeLocalPath(returnTo) ? { returnTo } : {},
    botCheck: setup.botCheck?.widget,
    defaultCountry: choices.defaultCountry ?? setup.defaultCountry,
    ...(choices.passkey ? { passkey: choices.passkey } : {}),
  });
  return showPage(context(setup, req, res), view);
}

/**
 * The waiting page: an approved flow goes on to the callback (which finishes the login), a
 * session that sent nothing goes to the sign-in page (or, signed in, to `successRedirect`),
 * anything else is shown.
 */
export async function showWaitingPage(
  setup: LoginSetup,
  paths: LoginPaths,
  successRedirect: string,
  req: HttpRequest,
  res: ServerResponse,
): Promise<void> {
  const waiting = readWaiting(req);
  const flow = await flowStatusOf(setup, req);
  if (flow.status === 'approved') return redirectSeeOther(res, paths.callback);
  if (!waiting && (flow.status === 'none' || !setup.handoff)) {
    // Signed in already (the link was used in another tab): on to where a login goes.
    const signedIn = (req as { user?: unknown }).user;
    return redirectSeeOther(res, signedIn ? successRedirect : paths.signIn);
  }
  const now = Date.now();
  const sentAt = waiting?.sentAt ?? now;
  // Without a handoff nothing answers but the link itself: the page shows where it went, and waits.
  const polls = setup.handoff !== undefined;
  const view = waitingView(context(setup, req, res), {
    status: polls ? flow.status : 'pending',
    poll: polls,
    ...(flow.match !== undefined ? { match: flow.match } : {}),
    ...(flow.expiresAt !== undefined ? { expiresAt: new Date(flow.expiresAt) } : {}),
    sentTo: waiting?.to ?? [],
    statusUrl: paths.status,
    continueUrl: paths.callback,
    resend: {
      action: paths.send,
      hidden: { resend: '1' },
      resendInSeconds: Math.max(0, Math.ceil(RESEND_AFTER_SECONDS - (now - sentAt) / 1000)),
    },
    startAgainUrl: paths.signIn,
    now,
  });
  return showPage(context(setup, req, res), view);
}

/** The error page of a failed callback: what happened, and the way back to the sign-in page. */
export function showErrorPage(
  setup: LoginSetup,
  paths: LoginPaths,
  req: HttpRequest,
  res: ServerResponse,
  failure: { status: number; code: string; message: string },
): Promise<void> {
  const view = errorView(context(setup, req, res), { ...failure, startAgainUrl: paths.signIn });
  return showPage(context(setup, req, res), view);
}

/** A query parameter given once, or `undefined`. */
export function queryValue(req: HttpRequest, name: string): string | undefined {
  const url = req.url ?? '';
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const values = new URLSearchParams(query).getAll(name);
  return values.length === 1 ? values[0] : undefined;
}
