import type { ServerResponse } from 'node:http';
import { redirectSeeOther, sendJson, wantsJson } from '../web/request.js';
import type { HttpRequest } from '../web/request.js';
import { translatorFor } from '../web/messages/index.js';
import { escapeHtml, sendPage } from '../web/pages/index.js';

/** Stable codes of what a guard answers; JSON clients get `{ error: { code } }`. */
export type GuardRefusalCode =
  | 'UNAUTHENTICATED'
  | 'RISK_CHALLENGE'
  | 'RISK_BLOCKED'
  | 'IDENTITY_REQUIRED'
  // The service session behind a session-token login has ended (`requireServiceSession()`).
  | 'SESSION_ENDED'
  // A passkey sign-in carries no risk signals: `requireLowRisk()` refuses it unless `passkeyLogins: 'accept'`.
  | 'PASSKEY_NOT_ACCEPTED';

/** The status of each refusal; its words are in the message catalogue (`guard.<code>.title/text`). */
const STATUS: Record<GuardRefusalCode, number> = {
  UNAUTHENTICATED: 401,
  RISK_CHALLENGE: 403,
  RISK_BLOCKED: 403,
  IDENTITY_REQUIRED: 403,
  SESSION_ENDED: 401,
  PASSKEY_NOT_ACCEPTED: 403,
};

/**
 * Answers a refusal: a JSON client gets the status and `{ error: { code } }`, a browser a short
 * page. Neither ever shows the reasons behind a risk verdict: those go to `req.risk` and the
 * audit hook, so an attacker cannot learn which signal to hide.
 */
export function refuse(req: HttpRequest, res: ServerResponse, code: GuardRefusalCode, loginUrl?: string): void {
  const status = STATUS[code];
  if (wantsJson(req)) return sendJson(res, status, { error: { code } });
  if ((code === 'UNAUTHENTICATED' || code === 'SESSION_ENDED') && loginUrl) return redirectSeeOther(res, loginUrl);
  // In the browser's language (Accept-Language): a guard has no strategy, so no app catalogue.
  const { t, locale, dir } = translatorFor(req);
  const action = loginUrl ? `<p><a href="${escapeHtml(loginUrl)}">${escapeHtml(t('guard.signIn'))}</a></p>` : '';
  const text = `<p>${escapeHtml(t(`guard.${code}.text`))}</p>`;
  sendPage(res, { status, title: t(`guard.${code}.title`), bodyHtml: text + action, lang: locale, dir });
}
