import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { writeAnswer } from '../host.js';
import { cssColor, imageSource, textOn } from '../theme.js';
import type { PageTheme } from '../theme.js';

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
  /** Trusted HTML for `<head>` (the waiting page's `<noscript>` refresh). */
  headHtml?: string;
  /**
   * The one inline script this page may run (the waiting page's live status): the CSP allows it
   * by its hash, and `fetch` to this site. Every other page runs no script at all.
   */
  script?: string;
  /**
   * A script file of this site the page loads (the passkey script), by its absolute URL: the CSP
   * allows that one URL, and `fetch` to this site.
   */
  scriptFile?: string;
  /** A script of another origin this page loads (the bot check's widget), with what its CSP must allow. */
  widget?: { src: string; csp: { script: readonly string[]; frame: readonly string[]; connect: readonly string[] } };
}

// One look for every page: a centred card that reads at phone width (320 px and up, and at 200%
// zoom), no external resource but the app's logo.
const STYLE =
  'body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;background:var(--bg);color:var(--fg);line-height:1.5}' +
  'main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 2px 12px #0001;max-width:28rem;margin:1rem;min-width:0}' +
  'h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem;overflow-wrap:break-word}.nobr{white-space:nowrap}' +
  '.brand{display:flex;align-items:center;gap:.6rem;margin:0 0 1.25rem;font-weight:600}.brand img{max-height:2.5rem;max-width:10rem}' +
  'a{color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}' +
  '.note{font-size:.95rem;color:#4a5163}.code{font-size:.85rem;color:#4a5163}' +
  '.match{margin:1.25rem 0;padding:1rem;border-radius:10px;background:#f1f3f8;text-align:center}.match p{margin:.25rem 0}' +
  // The letter spacing also follows the last digit: as much padding before the first keeps the number centred.
  '.match .number{font-size:3.2rem;font-weight:700;letter-spacing:.15em;padding-left:.15em;line-height:1.1;font-variant-numeric:tabular-nums}' +
  '#match-label{font-weight:600}.over{font-size:1.05rem}' +
  '.button{display:inline-block;padding:.7rem 1.6rem;border-radius:8px;background:var(--accent);color:var(--on-accent);text-decoration:none;font-weight:600}' +
  '@media (max-width:420px){main{padding:1.5rem 1.25rem;margin:.5rem}h1{font-size:1.4rem}}';
// Only pages with a form carry the styles of its controls.
const FORM_STYLE =
  'button{font:inherit;font-size:1.05rem;min-height:2.75rem;padding:.7rem 1.6rem;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}' +
  'button.secondary{background:#e8ebf1;color:#1d2330}button:disabled{background:#e8ebf1;color:#4a5163;cursor:not-allowed}' +
  'label{display:block;margin-bottom:.4rem;font-weight:600}' +
  '#match{font:inherit;font-size:1.4rem;width:4.5rem;text-align:center;padding:.4rem;border:1px solid #6b7385;border-radius:8px}' +
  '.field{margin:0 0 1rem}.field input{font:inherit;font-size:1.1rem;width:100%;box-sizing:border-box;padding:.6rem .7rem;border:1px solid #6b7385;border-radius:8px}' +
  '.field input[aria-invalid=true]{border:2px solid #b3261e}.hint{display:block;font-size:.9rem;color:#4a5163;margin:-.2rem 0 .4rem}' +
  'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.3rem;padding:0}' +
  '.choice{display:inline-flex;align-items:center;gap:.4rem;margin:0 1.25rem 0 0;font-weight:400}.choice input{width:1.2rem;height:1.2rem;margin:0}' +
  '.or{display:flex;align-items:center;gap:.75rem;color:#4a5163;margin:.25rem 0 1rem}.or::before,.or::after{content:"";flex:1;border-top:1px solid #d5d9e2}' +
  '.error{color:#b3261e;font-weight:600}.field .error{margin:.35rem 0 0}';

/**
 * The CSS variables of the theme. Each colour is checked again where it is written, so a value
 * that never went through `checkTheme` (or changed since) cannot leave the declaration.
 */
function themeStyle(theme: PageTheme | undefined): string {
  const accent = cssColor(theme?.colors?.accent, '#2457d6');
  const bg = cssColor(theme?.colors?.background, '#f6f7f9');
  const fg = cssColor(theme?.colors?.text, '#1d2330');
  return `:root{--accent:${accent};--on-accent:${textOn(accent)};--bg:${bg};--fg:${fg}}`;
}

/** The package's own document for a page. */
function documentHtml(page: Page): string {
  const style = themeStyle(page.theme) + (page.bodyHtml.includes('<form') ? STYLE + FORM_STYLE : STYLE);
  const theme = page.theme;
  const logoUrl = imageSource(theme?.logoUrl) ? theme?.logoUrl : undefined;
  const name = typeof theme?.name === 'string' ? theme.name : undefined;
  const logo = logoUrl ? `<img src="${escapeHtml(logoUrl)}" alt="${name ? '' : 'Logo'}">` : '';
  const brand = name || logo ? `<p class="brand">${logo}${name ? escapeHtml(name) : ''}</p>` : '';
  const script =
    (page.script === undefined ? '' : `<script>${page.script}</script>`) +
    (page.scriptFile === undefined ? '' : `<script src="${escapeHtml(page.scriptFile)}" defer></script>`) +
    (page.widget === undefined ? '' : `<script src="${escapeHtml(page.widget.src)}" async defer></script>`);
  return `<!doctype html>
<html lang="${escapeHtml(page.lang ?? 'en')}" dir="${page.dir === 'rtl' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title><style>${style}</style>${page.headHtml ?? ''}
</head><body><main>${brand}<h1>${headingHtml(page.title)}</h1>${page.bodyHtml}</main>${script}</body></html>`;
}

/** A heading whose hyphenated words never break at the hyphen ("sign-/in" at phone width). */
function headingHtml(title: string): string {
  return escapeHtml(title).replace(/[^\s-]+(?:-[^\s-]+)+/g, (word) => `<span class="nobr">${word}</span>`);
}

/** The CSP source that allows exactly this inline script. */
export function scriptSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * Answers one of the package's pages. Pages may hold one-time values (a code in a form), so they
 * are never cached, never framed, post forms only to this site, and run no script but the
 * waiting page's own (allowed by its hash, on that page only).
 */
export function sendPage(res: ServerResponse, page: Page): void {
  const html = page.html ?? documentHtml(page);
  const images = imageSource(page.theme?.logoUrl);
  const scripts = [
    ...(page.script === undefined ? [] : [scriptSource(page.script)]),
    ...(page.scriptFile === undefined ? [] : [page.scriptFile]),
    ...(page.widget?.csp.script ?? []),
  ];
  const connects = [
    ...(page.script === undefined && page.scriptFile === undefined ? [] : ["'self'"]),
    ...(page.widget?.csp.connect ?? []),
  ];
  const script =
    (scripts.length ? `; script-src ${scripts.join(' ')}` : '') +
    (page.widget ? `; frame-src ${page.widget.csp.frame.join(' ')}` : '') +
    (connects.length ? `; connect-src ${connects.join(' ')}` : '');
  const widget = '';
  const headers = {
    ...PAGE_HEADERS,
    // The app's own stylesheets, fonts and images (a page its render drew) and the theme's logo.
    'Content-Security-Policy':
      `default-src 'none'; style-src 'self' 'unsafe-inline'; font-src 'self'; img-src 'self'${images && images !== "'self'" ? ` ${images}` : ''}` +
      `${script}${widget}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  };
  writeAnswer(res, page.status, headers, html);
}

/**
 * What every page is answered with (with its Content-Security-Policy, which names the theme's
 * logo). Pages' URLs may hold a link's code and their forms post back to it: `strict-origin`
 * lets no Referer carry a path or query (not even to this site's assets, whose logs would keep
 * it), while the browser still names this site in `Origin` on the page's own forms (with
 * `no-referrer` it sends `Origin: null`).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'strict-origin',
});
