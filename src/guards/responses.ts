import type { ServerResponse } from 'node:http';
import { escapeHtml, redirectSeeOther, sendJson, wantsJson } from '../strategy/http.js';
import type { HttpRequest } from '../strategy/http.js';

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
export function refuse(req: HttpRequest, res: ServerResponse, code: GuardRefusalCode, loginURL?: string): void {
  const page = PAGES[code];
  if (wantsJson(req)) return sendJson(res, page.status, { error: { code } });
  if (code === 'UNAUTHENTICATED' && loginURL) return redirectSeeOther(res, loginURL);
  const action = loginURL ? `<p><a href="${escapeHtml(loginURL)}">Sign in</a></p>` : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${page.title}</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;background:#f6f7f9;color:#1d2330}main{background:#fff;padding:2rem 2.5rem;border-radius:12px;box-shadow:0 2px 12px #0001;max-width:28rem}a{color:#2457d6}</style>
</head><body><main><h1>${page.title}</h1><p>${page.text}</p>${action}</main></body></html>`;
  res.statusCode = page.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(html);
}
