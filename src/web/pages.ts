import type { ServerResponse } from 'node:http';
import { writeAnswer } from './host.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page the package shows a person: the confirm page, the guards' refusals, the approval page. */
export interface Page {
  status: number;
  title: string;
  /** Trusted HTML for the card's body: every value in it must have gone through `escapeHtml`. */
  bodyHtml: string;
}

// One look for every page: a centred card that reads at phone width, no script, no external resource.
const STYLE =
  'body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;background:#f6f7f9;color:#1d2330}' +
  'main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 2px 12px #0001;max-width:28rem;margin:1rem}' +
  'a{color:#2457d6}';
// Only pages with a form carry the styles of its controls.
const FORM_STYLE =
  'button{font:inherit;font-size:1.05rem;padding:.7rem 1.6rem;border:0;border-radius:8px;background:#2457d6;color:#fff;cursor:pointer}' +
  'button.secondary{background:#e8ebf1;color:#1d2330}input{font:inherit;font-size:1.4rem;width:4.5rem;text-align:center;padding:.4rem;border:1px solid #b8bfcc;border-radius:8px}';

/**
 * Answers one of the package's pages. Pages may hold one-time values (a code in a form), so they
 * are never cached, never framed, post forms only to this site and run no script.
 */
export function sendPage(res: ServerResponse, page: Page): void {
  const style = page.bodyHtml.includes('<form') ? STYLE + FORM_STYLE : STYLE;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title><style>${style}</style>
</head><body><main><h1>${escapeHtml(page.title)}</h1>${page.bodyHtml}</main></body></html>`;
  writeAnswer(res, page.status, PAGE_HEADERS, html);
}

/**
 * What every page is answered with. Its forms post back to a URL that holds a code: this site
 * may see the Referer, no other may, and browsers then name this site in `Origin` (with
 * no-referrer they send `Origin: null`).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'same-origin',
});

/**
 * The page `confirm: true` shows on GET: mail scanners that open links do not press buttons,
 * so the code is spent only by the person's POST. The form posts back to the same URL, so the
 * code arrives in the query even when the app has no body parser on the callback route.
 */
export function sendConfirmPage(res: ServerResponse, code: string): void {
  sendPage(res, {
    status: 200,
    title: 'Confirm sign-in',
    bodyHtml:
      '<p>Press the button to finish signing in.</p>' +
      `<form method="post"><input type="hidden" name="code" value="${escapeHtml(code)}"><button type="submit">Sign in</button></form>`,
  });
}

/** What the approval page says of the browser that asked for the link. */
export interface AskingBrowser {
  browser?: string;
  os?: string;
  /** Epoch ms when the link was asked for. */
  at: number;
}

/**
 * The page a link opened on another device shows (the phone, when the laptop asked). GET spends
 * nothing, so previews and scanners see only this page; the person approves by typing the number
 * the asking browser shows, and the form posts back to the same URL (the code stays in its query).
 */
export function sendApprovalPage(res: ServerResponse, asking: AskingBrowser, now: number): void {
  const what = [asking.browser, asking.os && `on ${asking.os}`].filter(Boolean).join(' ') || 'A browser';
  const minutes = Math.max(0, Math.round((now - asking.at) / 60_000));
  const when = minutes === 0 ? 'just now' : minutes === 1 ? 'a minute ago' : `${minutes} minutes ago`;
  sendPage(res, {
    status: 200,
    title: 'Approve sign-in on your computer?',
    bodyHtml:
      `<p><strong>${escapeHtml(what)}</strong> asked to sign in ${escapeHtml(when)}.</p>` +
      '<p>Type the number shown on that screen to sign it in. If you did not ask to sign in, press “This wasn’t me”.</p>' +
      '<form method="post"><p><label>Number <input name="match" inputmode="numeric" pattern="[0-9]{2}" maxlength="2" ' +
      'autocomplete="off" required autofocus></label></p><p><button type="submit">Approve</button></p></form>' +
      '<form method="post"><input type="hidden" name="decision" value="deny">' +
      '<button type="submit" class="secondary">This wasn’t me</button></form>',
  });
}

/** How an approval on this device ended. */
export type ApprovalOutcome = 'approved' | 'wrongNumber' | 'denied' | 'rejected' | 'gone';

const OUTCOMES: Record<ApprovalOutcome, { status: number; title: string; text: string }> = {
  approved: {
    status: 200,
    title: 'You are signed in on your computer',
    text: 'You can close this tab and go back to your computer.',
  },
  wrongNumber: {
    status: 403,
    title: 'Sign-in cancelled',
    text: 'The number did not match, so nobody was signed in. If it was you, ask for a new link on your computer.',
  },
  denied: {
    status: 200,
    title: 'Sign-in cancelled',
    text: 'Nobody was signed in. If you did not ask for this link, you can ignore it; your account is safe.',
  },
  rejected: {
    status: 401,
    title: 'This link cannot be used',
    text: 'It is invalid, has expired or was already used. Ask for a new link on your computer.',
  },
  gone: {
    status: 410,
    title: 'This sign-in request is over',
    text: 'It has expired, or was already approved or cancelled. Ask for a new link on your computer if you need one.',
  },
};

/** The page the approving device sees once it has answered. */
export function sendApprovalOutcome(res: ServerResponse, outcome: ApprovalOutcome): void {
  const page = OUTCOMES[outcome];
  sendPage(res, { status: page.status, title: page.title, bodyHtml: `<p>${escapeHtml(page.text)}</p>` });
}
