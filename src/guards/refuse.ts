import type { ServerResponse } from 'node:http';
import { redirectSeeOther, sendJson, wantsJson } from '../web/request.js';
import type { HttpRequest } from '../web/request.js';
import { escapeHtml, sendPage } from '../web/pages.js';

/** Stable codes of what a guard answers; JSON clients get `{ error: { code } }`. */
export type GuardRefusalCode = 'UNAUTHENTICATED' | 'RISK_CHALLENGE' | 'RISK_BLOCKED' | 'IDENTITY_REQUIRED';

const PAGES: Record<GuardRefusalCode, { status: number; title: string; text: string }> = {
  UNAUTHENTICATED: { status: 401, title: 'Please sign in', text: 'You need to sign in to see this page.' },
  RISK_CHALLENGE: {
    status: 403,
    title: 'Please confirm it is you',
    text: 'We could not confirm that this sign-in is safe enough for this page. Sign in again from your usual device and network to continue.',
  },
  RISK_BLOCKED: {
    status: 403,
    title: 'This page is not available',
    text: 'For your security this page cannot be opened from this sign-in. If you think this is a mistake, contact support.',
  },
  IDENTITY_REQUIRED: {
    status: 403,
    title: 'Verification needed',
    text: 'This page needs a verified contact you have not confirmed yet. Sign in with it to continue.',
  },
};

/**
 * Answers a refusal: a JSON client gets the status and `{ error: { code } }`, a browser a short
 * page. Neither ever shows the reasons behind a risk verdict: those go to `req.risk` and the
 * audit hook, so an attacker cannot learn which signal to hide.
 */
export function refuse(req: HttpRequest, res: ServerResponse, code: GuardRefusalCode, loginUrl?: string): void {
  const page = PAGES[code];
  if (wantsJson(req)) return sendJson(res, page.status, { error: { code } });
  if (code === 'UNAUTHENTICATED' && loginUrl) return redirectSeeOther(res, loginUrl);
  const action = loginUrl ? `<p><a href="${escapeHtml(loginUrl)}">Sign in</a></p>` : '';
  sendPage(res, { status: page.status, title: page.title, bodyHtml: `<p>${escapeHtml(page.text)}</p>${action}` });
}
