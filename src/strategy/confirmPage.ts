import type { ServerResponse } from 'node:http';
import { escapeHtml } from './http.js';

/**
 * The page `confirm: true` shows on GET: mail scanners that open links do not press buttons,
 * so the code is spent only by the person's POST. The form posts back to the same URL, so the
 * code arrives in the query even when the app has no body parser on the callback route.
 */
export function sendConfirmPage(res: ServerResponse, code: string): void {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Confirm sign-in</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;background:#f6f7f9;color:#1d2330}
main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 2px 12px #0001;text-align:center;max-width:24rem}
button{font:inherit;font-size:1.05rem;padding:.7rem 1.6rem;border:0;border-radius:8px;background:#2457d6;color:#fff;cursor:pointer}</style>
</head><body><main><h1>Confirm sign-in</h1><p>Press the button to finish signing in.</p>
<form method="post"><input type="hidden" name="code" value="${escapeHtml(code)}"><button type="submit">Sign in</button></form>
</main></body></html>`;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.end(html);
}
