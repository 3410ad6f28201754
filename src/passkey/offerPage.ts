import type { ServerResponse } from 'node:http';
import type { LoginSetup } from '../login/compose.js';
import { translatorFor } from '../web/messages/index.js';
import { escapeHtml, sendPage } from '../web/pages/index.js';
import type { HttpRequest } from '../web/request.js';

/** Where the offer page's parts post and go. */
export interface OfferPaths {
  scriptUrl: string;
  optionsUrl: string;
  verifyUrl: string;
  notNowUrl: string;
  /** Where the person goes next: `returnTo` or `successRedirect`. */
  next: string;
}

/**
 * The offer after a link login: "Sign in faster next time", one button (shown by the script only
 * where this device can make a passkey) and "Not now" (a form: it works without script). Without
 * script the page goes straight on (a `<noscript>` refresh): no offer where none can be taken.
 */
export function showOfferPage(setup: LoginSetup, req: HttpRequest, res: ServerResponse, paths: OfferPaths): void {
  const { t, locale, dir } = translatorFor(req, setup.pages);
  const data = {
    mode: 'offer',
    'options-url': paths.optionsUrl,
    'verify-url': paths.verifyUrl,
    next: paths.next,
    'say-working': t('passkey.working'),
    'say-done': t('passkey.done'),
    'say-cancelled': t('passkey.cancelled'),
    'say-failed': t('passkey.failed'),
  };
  const body =
    `<p>${escapeHtml(t('passkey.offer.text'))}</p>` +
    `<div id="passkey" hidden ${dataAttributes(data)}>` +
    `<p><button type="button" id="passkey-button">${escapeHtml(t('passkey.offer.button'))}</button></p>` +
    `<p id="passkey-status" role="status"></p></div>` +
    `<form method="post" action="${escapeHtml(paths.notNowUrl)}">` +
    `<button type="submit" class="secondary">${escapeHtml(t('passkey.offer.notNow'))}</button></form>`;
  sendPage(res, {
    status: 200,
    title: t('passkey.offer.title'),
    bodyHtml: body,
    lang: locale,
    dir,
    theme: setup.pages?.theme,
    headHtml: `<noscript><meta http-equiv="refresh" content="0;url=${escapeHtml(paths.next)}"></noscript>`,
    scriptFile: paths.scriptUrl,
  });
}

/** `data-` attributes from plain text, escaped. */
export function dataAttributes(data: Readonly<Record<string, string>>): string {
  return Object.entries(data)
    .map(([name, value]) => `data-${name}="${escapeHtml(value)}"`)
    .join(' ');
}
