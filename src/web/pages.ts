import type { ServerResponse } from 'node:http';

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
  res.statusCode = page.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.end(html);
}

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
