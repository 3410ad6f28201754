import type { ServerResponse } from 'node:http';
import { GUARD_REFUSAL_STATUS } from '../errors/guardCodes.js';
import type { GuardRefusalCode } from '../errors/guardCodes.js';
import { redirectSeeOther, sendJson, wantsJson } from '../web/request.js';
import type { HttpRequest } from '../web/request.js';
import { translatorFor } from '../web/messages/index.js';
import { escapeHtml, sendPage } from '../web/pages/index.js';

/**
 * Answers a refusal: a JSON client gets the status and `{ error: { code } }`, a browser a short
 * page. Neither ever shows the reasons behind a risk verdict: those go to `req.risk` and the
 * audit hook, so an attacker cannot learn which signal to hide.
 */
export function refuse(req: HttpRequest, res: ServerResponse, code: GuardRefusalCode, loginUrl?: string): void {
  const status = GUARD_REFUSAL_STATUS[code];
  if (wantsJson(req)) return sendJson(res, status, { error: { code } });
  if ((code === 'UNAUTHENTICATED' || code === 'SESSION_ENDED') && loginUrl) return redirectSeeOther(res, loginUrl);
  // In the browser's language (Accept-Language): a guard has no strategy, so no app catalogue.
  const { t, locale, dir } = translatorFor(req);
  const action = loginUrl ? `<p><a href="${escapeHtml(loginUrl)}">${escapeHtml(t('guard.signIn'))}</a></p>` : '';
  const text = `<p>${escapeHtml(t(`guard.${code}.text`))}</p>`;
  sendPage(res, { status, title: t(`guard.${code}.title`), bodyHtml: text + action, lang: locale, dir });
}
