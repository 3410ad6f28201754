import type { ServerResponse } from 'node:http';
import type { OtplessRequestError } from '../errors/index.js';
import type { LoginSetup } from '../login/compose.js';
import { isSafeLocalPath } from '../web/origin.js';
import { errorView, showPage, signInView, waitingView } from '../web/pages.js';
import type { PageContext } from '../web/pages.js';
import { livePending } from '../session/pending.js';
import { sessionOf } from '../session/session.js';
import { isPhoneBrowser, serviceAppLink } from '../web/appLinks.js';
import { queryOf, queryValue } from '../web/query.js';
import type { HttpRequest } from '../web/request.js';
import { redirectSeeOther, sendJson, wantsJson } from '../web/request.js';
import { againChoices } from './againChoices.js';
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
  const returnTo = refused ? refused.values.returnTo : queryOnce(req, 'returnTo');
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
 * anything else is shown: where the link went and by which channel, the messaging app on a
 * phone, and after `resendAfterSeconds` the ways to get it again. A JSON client gets the same
 * as JSON (`waitingJson`).
 */
export async function showWaitingPage(
  setup: LoginSetup,
  paths: LoginPaths,
  successRedirect: string,
  resendAfterSeconds: number,
  req: HttpRequest,
  res: ServerResponse,
): Promise<void> {
  const now = Date.now();
  const waiting = readWaiting(req, now);
  const flow = await flowStatusOf(setup, req);
  const json = wantsJson(req);
  if (flow.status === 'approved' && !json) return redirectSeeOther(res, paths.callback);
  if (!waiting && (flow.status === 'none' || !setup.handoff)) {
    if (json) return sendJson(res, 200, { status: 'none' });
    // Signed in already (the link was used in another tab): on to where a login goes.
    const signedIn = (req as { user?: unknown }).user;
    return redirectSeeOther(res, signedIn ? successRedirect : paths.signIn);
  }
  const sentAt = waiting?.sentAt ?? now;
  // Without a handoff nothing answers but the link itself: the page shows where it went, and waits.
  const polls = setup.handoff !== undefined;
  // A record with no send left in the session: its link expired, or was used or refused.
  const over = waiting !== undefined && livePending(sessionOf(req), now).length === 0;
  const status = over ? 'expired' : polls ? flow.status : 'pending';
  const choices = againChoices(waiting?.via ?? [], setup.fallbackChannel);
  const resendInSeconds = Math.max(0, Math.ceil(resendAfterSeconds - (now - sentAt) / 1000));
  // The app's button only on a phone, where the app is, and only for a link of the service's own.
  const app = isPhoneBrowser(req.headers['user-agent']) ? serviceAppLink(waiting?.app) : undefined;
  if (json) {
    return sendJson(res, 200, {
      status,
      ...(flow.match !== undefined ? { match: flow.match } : {}),
      ...(flow.expiresAt !== undefined ? { expiresAt: flow.expiresAt } : {}),
      sentTo: waiting?.via ?? [],
      ...(app ? { openApp: app.href } : {}),
      again: waiting
        ? { action: paths.send, body: { resend: '1' }, inSeconds: over ? 0 : resendInSeconds, choices }
        : undefined,
    });
  }
  const view = waitingView(context(setup, req, res), {
    status,
    poll: polls,
    ...(flow.match !== undefined ? { match: flow.match } : {}),
    ...(flow.expiresAt !== undefined ? { expiresAt: new Date(flow.expiresAt) } : {}),
    sentTo: waiting?.to ?? [],
    sentVia: waiting?.via ?? [],
    ...(app ? { openApp: app } : {}),
    statusUrl: paths.status,
    continueUrl: paths.callback,
    ...(waiting ? { resend: { action: paths.send, hidden: { resend: '1' }, resendInSeconds, choices } } : {}),
    startAgainUrl: paths.signIn,
    now,
  });
  return showPage(context(setup, req, res), view);
}

/** The failures about the link itself: in the browser that asked, one click sends a new one. */
const NEW_LINK_HELPS: ReadonlySet<string> = new Set([
  'CODE_REJECTED',
  'FLOW_EXPIRED',
  'WRONG_BROWSER',
  'INVALID_CODE',
  'FLOW_DENIED',
  'NO_VERIFIED_IDENTITY',
]);

/**
 * The error page of a failed callback: what happened, and the way back to the sign-in page. In
 * the browser that asked for the link (its session still knows where the link went), a link
 * used, expired or refused also gets "Send a new link": one click, within the send limits.
 */
export function showErrorPage(
  setup: LoginSetup,
  paths: LoginPaths,
  req: HttpRequest,
  res: ServerResponse,
  failure: { status: number; code: string; message: string },
): Promise<void> {
  const waiting = NEW_LINK_HELPS.has(failure.code) ? readWaiting(req) : undefined;
  const view = errorView(context(setup, req, res), {
    ...failure,
    startAgainUrl: paths.signIn,
    ...(waiting ? { sendNew: { action: paths.send, hidden: { resend: '1' }, to: waiting.to } } : {}),
  });
  return showPage(context(setup, req, res), view);
}

/** A query parameter given once, or `undefined`: read as the callback reads its query. */
function queryOnce(req: HttpRequest, name: string): string | undefined {
  const value = queryValue(queryOf(req.url ?? ''), name);
  return typeof value === 'string' ? value : undefined;
}
