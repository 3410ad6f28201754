import type { ServerResponse } from 'node:http';
import { writeAnswer } from './host.js';
import { translatorFor } from './messages/index.js';
import type { MessageKey, Translator } from './messages/index.js';
import type { HttpRequest } from './request.js';
import { imageSource, textOn } from './theme.js';
import type { PageTheme } from './theme.js';
import { viewBase } from './view.js';
import type { ApprovalOutcome, ApprovalView, ConfirmView, OutcomeView, PageOptions, PageView } from './view.js';

export type { ApprovalOutcome } from './view.js';

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
  /** The whole document, when the app's render function drew it (then `bodyHtml` is unused). */
  html?: string;
  /** `<html lang>` and `dir`: 'en' and 'ltr' unless given. */
  lang?: string;
  dir?: 'ltr' | 'rtl';
  theme?: PageTheme | undefined;
}

// One look for every page: a centred card that reads at phone width (320 px and up, and at 200%
// zoom), no script, no external resource but the app's logo.
const STYLE =
  'body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;background:var(--bg);color:var(--fg);line-height:1.5}' +
  'main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 2px 12px #0001;max-width:28rem;margin:1rem;min-width:0}' +
  'h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem;overflow-wrap:break-word}.nobr{white-space:nowrap}' +
  '.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 1.25rem;font-weight:600}.brand img{max-height:2.5rem;max-width:10rem}' +
  'a{color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}' +
  '@media (max-width:420px){main{padding:1.5rem 1.25rem;margin:.5rem}h1{font-size:1.4rem}}';
// Only pages with a form carry the styles of its controls.
const FORM_STYLE =
  'button{font:inherit;font-size:1.05rem;min-height:2.75rem;padding:.7rem 1.6rem;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}' +
  'button.secondary{background:#e8ebf1;color:#1d2330}label{display:block;margin-bottom:.4rem;font-weight:600}' +
  'input{font:inherit;font-size:1.4rem;width:4.5rem;text-align:center;padding:.4rem;border:1px solid #6b7385;border-radius:8px}' +
  '.error{color:#b3261e;font-weight:600}';

/** The CSS variables of the theme (checked hex colours only, see theme.ts), or the package's own. */
function themeStyle(theme: PageTheme | undefined): string {
  const accent = theme?.colors?.accent ?? '#2457d6';
  const bg = theme?.colors?.background ?? '#f6f7f9';
  const fg = theme?.colors?.text ?? '#1d2330';
  return `:root{--accent:${accent};--on-accent:${textOn(accent)};--bg:${bg};--fg:${fg}}`;
}

/** The package's own document for a page. */
function documentHtml(page: Page): string {
  const style = themeStyle(page.theme) + (page.bodyHtml.includes('<form') ? STYLE + FORM_STYLE : STYLE);
  const theme = page.theme;
  const logo = theme?.logoUrl ? `<img src="${escapeHtml(theme.logoUrl)}" alt="${theme.name ? '' : 'Logo'}">` : '';
  const brand = theme?.name || logo ? `<p class="brand">${logo}${theme?.name ? escapeHtml(theme.name) : ''}</p>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(page.lang ?? 'en')}" dir="${page.dir ?? 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title><style>${style}</style>
</head><body><main>${brand}<h1>${headingHtml(page.title)}</h1>${page.bodyHtml}</main></body></html>`;
}

/** A heading whose hyphenated words never break at the hyphen ("sign-/in" at phone width). */
function headingHtml(title: string): string {
  return escapeHtml(title).replace(/[^\s-]+(?:-[^\s-]+)+/g, (word) => `<span class="nobr">${word}</span>`);
}

/**
 * Answers one of the package's pages. Pages may hold one-time values (a code in a form), so they
 * are never cached, never framed, post forms only to this site and run no script.
 */
export function sendPage(res: ServerResponse, page: Page): void {
  const html = page.html ?? documentHtml(page);
  const images = imageSource(page.theme?.logoUrl);
  const headers = {
    ...PAGE_HEADERS,
    // No script ever; the app's own stylesheets, fonts and images (a page its render drew) and the theme's logo.
    'Content-Security-Policy': `default-src 'none'; style-src 'self' 'unsafe-inline'; font-src 'self'; img-src 'self'${images && images !== "'self'" ? ` ${images}` : ''}; form-action 'self'; frame-ancestors 'none'`,
  };
  writeAnswer(res, page.status, headers, html);
}

/** The words and look of the pages for one request. */
export interface PageContext {
  req: HttpRequest;
  res: ServerResponse;
  options: PageOptions | undefined;
}

/** The translator for a request, by the app's `pages` options. */
export function translate(ctx: Pick<PageContext, 'req' | 'options'>): Translator {
  return translatorFor(ctx.req, ctx.options);
}

/**
 * Where a page's forms post: back to the page's own URL (its query holds the link's code), which
 * a form without an `action` does. The page itself never repeats the URL, so never the code.
 */
const SELF = '';

/**
 * What every page is answered with (with its Content-Security-Policy, which names the theme's logo). Its forms post back to a URL that holds a code: this site
 * may see the Referer, no other may, and browsers then name this site in `Origin` (with
 * no-referrer they send `Origin: null`).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'same-origin',
});

/**
 * The page `confirm: true` shows on GET: mail scanners that open links do not press buttons,
 * so the code is spent only by the person's POST. The form posts back to the same URL, so the
 * code arrives in the query even when the app has no body parser on the callback route.
 */
export function confirmView(ctx: PageContext, code: string): ConfirmView {
  const tr = translate(ctx);
  return {
    ...viewBase(tr, ctx.options?.theme, 200, 'confirm.title', [tr.t('confirm.text')]),
    page: 'confirm',
    form: { action: SELF, method: 'post', hidden: { code }, button: tr.t('confirm.button') },
  };
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
 * `missingNumber` re-shows it, 400, when the form came back without one.
 */
export function approvalView(
  ctx: PageContext,
  asking: AskingBrowser,
  now: number,
  missingNumber = false,
): ApprovalView {
  const tr = translate(ctx);
  const deny = tr.t('approval.deny');
  const approve = tr.t('approval.approve');
  const text = [
    tr.t('approval.asked', { device: deviceText(tr, asking), when: whenText(tr, asking.at, now) }),
    tr.t('approval.instructions', { deny }),
  ];
  const action = SELF;
  return {
    ...viewBase(tr, ctx.options?.theme, missingNumber ? 400 : 200, 'approval.title', text),
    page: 'approval',
    askedBy: {
      ...(asking.browser ? { browser: asking.browser } : {}),
      ...(asking.os ? { os: asking.os } : {}),
      at: new Date(asking.at),
    },
    ...(missingNumber ? { error: tr.t('approval.numberMissing', { approve }) } : {}),
    approve: {
      action,
      method: 'post',
      hidden: {},
      button: approve,
      field: 'match',
      label: tr.t('approval.numberLabel'),
    },
    deny: { action, method: 'post', hidden: { decision: 'deny' }, button: deny },
  };
}

function deviceText(tr: Translator, asking: AskingBrowser): string {
  if (asking.browser && asking.os) return tr.t('approval.device', { browser: asking.browser, os: asking.os });
  return asking.browser ?? asking.os ?? tr.t('approval.deviceUnknown');
}

function whenText(tr: Translator, at: number, now: number): string {
  const minutes = Math.max(0, Math.round((now - at) / 60_000));
  if (minutes === 0) return tr.t('approval.justNow');
  return minutes === 1 ? tr.t('approval.minuteAgo') : tr.t('approval.minutesAgo', { count: minutes });
}

/** The status of each outcome: a wrong number and a refused code are the caller's 4xx. */
export const OUTCOME_STATUS: Record<ApprovalOutcome, number> = {
  approved: 200,
  wrongNumber: 403,
  denied: 200,
  rejected: 401,
  gone: 410,
};

/** The page the approving device sees once it has answered. */
export function outcomeView(ctx: Pick<PageContext, 'req' | 'options'>, outcome: ApprovalOutcome): OutcomeView {
  const tr = translate(ctx);
  const key = (part: 'title' | 'text'): MessageKey => `outcome.${outcome}.${part}`;
  return {
    ...viewBase(tr, ctx.options?.theme, OUTCOME_STATUS[outcome], key('title'), [tr.t(key('text'))]),
    page: 'outcome',
    outcome,
  };
}

/**
 * Answers a page: the app's render function draws it when it gives one and returns HTML, the
 * package's default otherwise; either way with the view's status and the security headers.
 */
export async function showPage(ctx: PageContext, view: PageView): Promise<void> {
  const html = ctx.options?.render ? await ctx.options.render(view, ctx.req) : undefined;
  if (typeof html === 'string') {
    return sendPage(ctx.res, { status: view.status, title: view.title, bodyHtml: '', html });
  }
  sendPage(ctx.res, {
    status: view.status,
    title: view.title,
    bodyHtml: defaultBody(view),
    lang: view.locale,
    dir: view.dir,
    theme: view.theme,
  });
}

/** The card's body of the package's own page for a view. */
function defaultBody(view: PageView): string {
  const paragraphs = view.text.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  if (view.page === 'outcome') return paragraphs;
  if (view.page === 'confirm') return paragraphs + formHtml(view.form, '');
  const { approve, deny, error } = view;
  const errorHtml = error ? `<p id="match-error" class="error" role="alert">${escapeHtml(error)}</p>` : '';
  const input =
    `<label for="match">${escapeHtml(approve.label)}</label>` +
    `<input id="match" name="${approve.field}" inputmode="numeric" pattern="[0-9]{2}" maxlength="2" autocomplete="off" required autofocus` +
    `${error ? ' aria-invalid="true" aria-describedby="match-error"' : ''}>`;
  return paragraphs + errorHtml + formHtml(approve, `<p>${input}</p>`) + formHtml(deny, '', 'secondary');
}

function formHtml(form: ApprovalView['deny'], fields: string, buttonClass?: string): string {
  const hidden = Object.entries(form.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const cls = buttonClass ? ` class="${buttonClass}"` : '';
  const action = form.action === SELF ? '' : ` action="${escapeHtml(form.action)}"`;
  return `<form method="post"${action}>${hidden}${fields}<p><button type="submit"${cls}>${escapeHtml(form.button)}</button></p></form>`;
}
