import { OUTBOX_PATH } from './devPaths.js';
import { RISK_SCENARIOS } from './scenarios.js';
import type { Login } from './store.js';
import type { OutboxEntry } from './types.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#1d2330;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;color:#c5cad6;font-size:13px}main{max-width:960px;margin:0 auto;padding:16px 24px}
.entry{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:12px 16px;margin:12px 0}
.entry h2{margin:0 0 6px;font-size:16px;overflow-wrap:anywhere}.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;font-weight:600;margin-right:6px;background:#e4e8f0;color:#2b3344;vertical-align:2px}
.waiting{background:#fff;color:#3a4353;box-shadow:inset 0 0 0 1px #b8bfcc}.clicked{background:#fff1cc;color:#6b4a00}.verified{background:#dff3e4;color:#0f6b37}.expired,.forgotten{background:#f7e1e1;color:#8a1f11}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0;font-size:13px}dt{color:#5b6475}dd{margin:0;overflow-wrap:anywhere}dd code{word-break:break-all}
.actions a{display:inline-block;margin:6px 6px 0 0;padding:4px 10px;border-radius:4px;border:1px solid #3d5afe;color:#3d5afe;text-decoration:none;font-size:13px}
.actions a.primary{background:#3d5afe;color:#fff}.empty{color:#5b6475}code{font-size:13px}
@media (max-width:520px){header,main{padding-left:16px;padding-right:16px}dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:6px}}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** A small page for the browser (expired or unknown link, bad scenario). */
export function messagePage(title: string, message: string): string {
  return page(title, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main>`);
}

type LinkState = 'waiting' | 'clicked' | 'verified' | 'expired' | 'forgotten';

function stateOf(entry: OutboxEntry, login: Login | undefined, now: number): LinkState {
  if (!login) return 'forgotten';
  if (login.completion) return 'verified';
  if (now >= entry.expiresAt) return 'expired';
  return login.code === undefined ? 'waiting' : 'clicked';
}

/** `1 link`, `3 links`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `in 5 minutes`, `2 minutes ago`, `just now`: how far `at` is from `now` (emulator clock). */
function relativeTime(at: number, now: number): string {
  const ms = at - now;
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 5) return 'just now';
  const text =
    seconds < 60
      ? count(seconds, 'second')
      : seconds < 3600
        ? count(Math.round(seconds / 60), 'minute')
        : seconds < 48 * 3600
          ? count(Math.round(seconds / 3600), 'hour')
          : count(Math.round(seconds / 86_400), 'day');
  return ms > 0 ? `in ${text}` : `${text} ago`;
}

/** A relative time a person reads, with the exact ISO time in its `title` and `datetime`. */
function timeTag(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  return `<time datetime="${iso}" title="${iso}">${relativeTime(at, now)}</time>`;
}

/** A mobile number (digits with the country code in the outbox) in E.164, `+14155550123`; an address as it is. */
function displayDestination(entry: Pick<OutboxEntry, 'type' | 'to'>): string {
  return entry.type === 'MOBILE' && /^\d+$/.test(entry.to) ? `+${entry.to}` : entry.to;
}

const CHANNEL_LABELS: Readonly<Record<OutboxEntry['channel'], string>> = {
  WHATSAPP: 'WhatsApp',
  SMS: 'SMS',
  VIBER: 'Viber',
  EMAIL: 'E-mail',
};

function entryCard(entry: OutboxEntry, state: LinkState, now: number): string {
  const channel = CHANNEL_LABELS[entry.channel];
  const actions =
    state === 'waiting' || state === 'clicked'
      ? `<div class="actions"><a class="primary" href="${escapeHtml(entry.link)}">Open link</a>${RISK_SCENARIOS.filter(
          (s) => s !== 'clean',
        )
          .map(
            (s) =>
              `<a href="${escapeHtml(`${entry.link}?risk=${s}`)}" title="Log in with the ${s} risk scenario">as ${s}</a>`,
          )
          .join('')}</div>`
      : '';
  const expiry = now >= entry.expiresAt ? 'Expired' : 'Expires';
  return `<section class="entry"><h2><span class="badge">${channel}</span><span class="badge ${state}">${state}</span>${escapeHtml(displayDestination(entry))}</h2>
<dl><dt>Channel</dt><dd>${escapeHtml(entry.channel)}</dd>
<dt>Sent</dt><dd>${timeTag(entry.createdAt, now)}</dd>
<dt>${expiry}</dt><dd>${timeTag(entry.expiresAt, now)}</dd>
<dt>Redirects to</dt><dd><code>${escapeHtml(entry.redirectUri)}</code></dd>
<dt>Request id</dt><dd><code>${escapeHtml(entry.requestId)}</code></dd>
${
  actions
    ? `<dt>On another device</dt><dd>Copy the link into another browser or a private window (the phone, in real life): it asks to approve with the number the first browser shows.<br><code>${escapeHtml(entry.link)}</code></dd>`
    : `<dt>Link</dt><dd><code>${escapeHtml(entry.link)}</code></dd>`
}</dl>${actions}</section>`;
}

/** A message the `notDelivered` fault lost: what was sent, and no link (nothing arrived). */
function lostCard(entry: OutboxEntry, now: number): string {
  return `<section class="entry"><h2><span class="badge">${CHANNEL_LABELS[entry.channel]}</span><span class="badge expired">not delivered</span>${escapeHtml(displayDestination(entry))}</h2>
<dl><dt>Sent</dt><dd>${timeTag(entry.createdAt, now)}</dd>
<dt>What happened</dt><dd>The service answered the send, but the message never arrived (the <code>notDelivered</code> fault). Ask for it again by another channel.</dd></dl></section>`;
}

/**
 * The dev inbox: every delivered link, newest first, with one button per risk scenario, and
 * the messages a `notDelivered` fault lost (without their link). It never shows a code (it
 * exists only after a click) nor a session token.
 */
export function inboxPage(
  sent: ReadonlyArray<{ entry: OutboxEntry; login: Login | undefined }>,
  now: number,
  urls: { authUrl: string },
  lost: readonly OutboxEntry[] = [],
): string {
  const cards = [
    ...sent.map(({ entry, login }) => ({
      at: entry.createdAt,
      html: entryCard(entry, stateOf(entry, login, now), now),
    })),
    ...lost.map((entry) => ({ at: entry.createdAt, html: lostCard(entry, now) })),
  ]
    .map((card, index) => ({ ...card, index }))
    // Newest first; of one time, the later added first.
    .sort((a, b) => b.at - a.at || b.index - a.index)
    .map((card) => card.html)
    .join('\n');
  const empty = `<p class="empty">No links sent yet. Send one with <code>GET ${escapeHtml(urls.authUrl)}/auth/v1/authorize</code>, then reload this page.</p>`;
  return page(
    'OTPless emulator inbox',
    `<header><h1>OTPless emulator: dev inbox</h1><p>${count(sent.length, 'link')} delivered. <a style="color:#fff" href="/">Reload</a> · <a style="color:#fff" href="${OUTBOX_PATH}">JSON</a></p></header>
<main>${cards || empty}</main>`,
  );
}
