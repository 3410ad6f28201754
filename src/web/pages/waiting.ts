import type { MessageKey } from '../messages/index.js';
import type { WaitingStatus, WaitingView } from '../view.js';
import { viewBase } from '../view.js';
import { translate } from './context.js';
import type { PageContext } from './context.js';
import { escapeHtml } from './document.js';
import { hiddenHtml } from './forms.js';
import { WAITING_SCRIPT } from './waitingScript.js';

/** What the waiting page is drawn from (the mount gives it from the flow and the send limits). */
export interface WaitingInput {
  status: WaitingStatus;
  /** The two-digit number the phone must be given. */
  match?: string;
  /** Where the link went, already masked. */
  sentTo?: readonly string[];
  /** Each destination with the channel its link went by: the page names the channel. */
  sentVia?: ReadonlyArray<{ channel: 'WHATSAPP' | 'SMS' | 'EMAIL'; to: string }>;
  /**
   * The messaging app's link, already checked against the service's own (`serviceAppLink`):
   * given on a phone only, drawn as "Open WhatsApp".
   */
  openApp?: { channel: 'WHATSAPP'; href: string };
  expiresAt?: Date;
  /** GET answers `{ status, match?, expiresAt? }` (the strategy's `status()`). */
  statusUrl: string;
  /** Where the browser goes once approved: the callback path. */
  continueUrl: string;
  /**
   * The form that asks for the link again, and the seconds before it is offered. `choices`:
   * the ways offered (another channel "instead", the same "again"); without them, one button
   * "Send the link again". Once the flow is over (expired), the same form is "Send a new link".
   */
  resend?: {
    action: string;
    hidden?: Readonly<Record<string, string>>;
    resendInSeconds?: number;
    choices?: ReadonlyArray<{ channel: 'WHATSAPP' | 'SMS' | 'EMAIL'; kind: 'instead' | 'same' }>;
  };
  /** The sign-in page. */
  startAgainUrl: string;
  /** Epoch ms the countdowns start from; `Date.now()` unless given. */
  now?: number;
  /**
   * Whether the page asks for the status while it waits (by script, or by reloading without
   * one). Default true; false when nothing can answer but the link itself (no cross-device
   * handoff: the link signs in the browser it is opened in).
   */
  poll?: boolean;
}

/** The seconds of a countdown as `m:ss`. */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const TITLES: Record<WaitingStatus, MessageKey> = {
  pending: 'waiting.title.pending',
  approved: 'waiting.title.approved',
  denied: 'waiting.title.over',
  expired: 'waiting.title.over',
  none: 'waiting.title.over',
};

/** True while the page has something to wait for: it then polls (or, without script, reloads). */
function isLive(status: WaitingStatus): boolean {
  return status === 'pending' || status === 'approved';
}

/**
 * The waiting page: where the link went, the number to type on the phone (large), the live
 * status, the expiry and the resend wait counted down, and "start again".
 *
 * @example
 * await showPage(ctx, waitingView(ctx, { status: 'pending', match: '42', sentTo: ['a***@example.com'],
 *   statusUrl: '/auth/status', continueUrl: '/auth/callback', startAgainUrl: '/auth/sign-in' }));
 */
export function waitingView(ctx: PageContext, input: WaitingInput): WaitingView {
  const tr = translate(ctx);
  const sentTo = [...(input.sentTo ?? [])];
  const live = isLive(input.status);
  const to = new Intl.ListFormat(tr.locale, { type: 'conjunction' }).format(sentTo);
  const sentVia = [...(input.sentVia ?? [])];
  const where = sentVia.length
    ? sentVia.map((v) => tr.t(`waiting.sentBy.${v.channel}`, { to: v.to }))
    : [sentTo.length ? tr.t('waiting.sentTo', { to }) : tr.t('waiting.sent')];
  const text = live ? [...where, tr.t('waiting.open')] : [];
  const resend = input.resend;
  const wait = resend?.resendInSeconds;
  const choices = (resend?.choices ?? []).map((c) =>
    c.kind === 'instead' && c.channel !== 'EMAIL'
      ? { channel: c.channel, label: tr.t(`waiting.instead.${c.channel}`), kind: c.kind }
      : { label: c.channel === 'EMAIL' ? tr.t('waiting.resend') : tr.t(`waiting.same.${c.channel}`), kind: c.kind },
  );
  const same = choices.find((c) => c.kind === 'same');
  // Over (expired, or the link used or refused): one click sends a new link where it went.
  const offersNew = resend !== undefined && (input.status === 'expired' || input.status === 'none');
  return {
    ...viewBase(tr, ctx.options?.theme, 200, TITLES[input.status], text),
    page: 'waiting',
    flowStatus: input.status,
    ...(input.match !== undefined && input.status === 'pending' ? { match: input.match } : {}),
    sentTo,
    sentVia,
    ...(input.openApp && live
      ? { openApp: { href: input.openApp.href, label: tr.t('waiting.openApp.WHATSAPP') } }
      : {}),
    ...(input.expiresAt
      ? {
          expiresAt: input.expiresAt,
          expiresInSeconds: Math.max(0, Math.ceil((input.expiresAt.getTime() - (input.now ?? Date.now())) / 1000)),
        }
      : {}),
    statusUrl: input.statusUrl,
    continueUrl: input.continueUrl,
    ...(resend && live
      ? {
          resend: {
            action: resend.action,
            method: 'post' as const,
            hidden: { ...resend.hidden },
            button: same?.label ?? tr.t('waiting.resend'),
            ...(wait !== undefined && wait > 0 ? { resendInSeconds: Math.ceil(wait) } : {}),
            ...(choices.length ? { heading: tr.t('waiting.again'), choices } : {}),
          },
        }
      : {}),
    startAgain: { href: input.startAgainUrl, label: tr.t('pages.startAgain') },
    ...(offersNew
      ? {
          sendNew: {
            action: resend.action,
            method: 'post' as const,
            hidden: { ...resend.hidden },
            button: tr.t('error.sendNew'),
            text:
              where.length && sentVia.length
                ? tr.t('error.sendNewTo', { to: sentVia.map((v) => v.to).join(', ') })
                : '',
          },
        }
      : {}),
    liveScript: WAITING_SCRIPT,
    polls: input.poll ?? true,
  };
}

/** The waiting page's `<head>` addition: without script, it reloads every 5 s while there is something to wait for. */
export function waitingHead(view: WaitingView): string {
  return isLive(view.flowStatus) && view.polls ? '<noscript><meta http-equiv="refresh" content="5"></noscript>' : '';
}

/** The waiting page's card. */
export function drawWaiting(view: WaitingView): string {
  const { t } = view;
  const live = isLive(view.flowStatus);
  const expiresIn = view.expiresInSeconds;
  const wait = view.resend?.resendInSeconds;
  const data: Record<string, string> = {
    'status-url': view.statusUrl,
    'continue-url': view.continueUrl,
    'title-over': t('waiting.title.over'),
    'say-approved': t('waiting.status.approved'),
    'say-denied': t('waiting.status.denied'),
    'say-expired': t('waiting.status.expired'),
    'expires-text': t('waiting.expiresIn'),
    'resend-text': t('waiting.resendIn'),
    ...(expiresIn !== undefined && live ? { 'expires-in': String(expiresIn) } : {}),
    ...(wait ? { 'resend-in': String(wait) } : {}),
  };
  const attributes = Object.entries(data)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  const sent = view.text.length
    ? `<div id="waiting-sent">${view.text.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>`
    : '';
  const match =
    view.match !== undefined
      ? `<div class="match" id="waiting-match"><p id="match-label">${escapeHtml(t('waiting.matchLabel'))}</p>` +
        `<p class="number" aria-describedby="match-label">${escapeHtml(view.match)}</p>` +
        `<p class="note">${escapeHtml(t('waiting.matchNote'))}</p></div>`
      : '';
  const status = `<p id="waiting-status" role="status"${live ? '' : ' class="over"'}>${escapeHtml(t(`waiting.status.${view.flowStatus}`))}</p>`;
  const expiry =
    expiresIn !== undefined && live
      ? `<p id="waiting-expiry" class="note">${escapeHtml(t('waiting.expiresIn', { time: clockText(expiresIn) }))}</p>`
      : '';
  const continueLink = `<p><a class="button" href="${escapeHtml(view.continueUrl)}">${escapeHtml(t('waiting.continue'))}</a></p>`;
  // With script, the page goes on by itself; without, the person follows the link after approving.
  const proceed =
    view.flowStatus === 'approved'
      ? continueLink
      : view.flowStatus === 'pending' && view.polls
        ? `<noscript>${continueLink}</noscript>`
        : '';
  const disabled = wait ? ' disabled' : '';
  const others = (view.resend?.choices ?? []).filter((c) => c.kind === 'instead' && c.channel !== undefined);
  const resend = view.resend
    ? `<form method="post" action="${escapeHtml(view.resend.action)}" id="waiting-resend">${hiddenHtml(view.resend.hidden)}` +
      (others.length && view.resend.heading ? `<p id="again-title">${escapeHtml(view.resend.heading)}</p>` : '') +
      (wait
        ? `<p id="resend-wait" class="note">${escapeHtml(t('waiting.resendIn', { time: clockText(wait) }))}</p>`
        : '') +
      others
        .map(
          (c) =>
            `<p><button type="submit" name="channel" value="${escapeHtml(c.channel!)}" id="resend-${c.channel!.toLowerCase()}"${disabled}>${escapeHtml(c.label)}</button></p>`,
        )
        .join('') +
      `<p><button type="submit" class="secondary" id="resend-button"${disabled}>${escapeHtml(view.resend.button)}</button></p></form>`
    : '';
  const openApp = view.openApp
    ? `<p><a class="button" id="open-app" href="${escapeHtml(view.openApp.href)}">${escapeHtml(view.openApp.label)}</a></p>`
    : '';
  const sendNew = view.sendNew
    ? `<form method="post" action="${escapeHtml(view.sendNew.action)}" id="waiting-new">${hiddenHtml(view.sendNew.hidden)}` +
      (view.sendNew.text ? `<p>${escapeHtml(view.sendNew.text)}</p>` : '') +
      `<p><button type="submit">${escapeHtml(view.sendNew.button)}</button></p></form>`
    : '';
  const again = live
    ? `<p class="note">${escapeHtml(t('waiting.wrong'))} <a href="${escapeHtml(view.startAgain.href)}">${escapeHtml(view.startAgain.label)}</a></p>`
    : `<p><a class="button" href="${escapeHtml(view.startAgain.href)}">${escapeHtml(view.startAgain.label)}</a></p>`;
  return `<div id="waiting"${attributes}>${sent}${openApp}${match}${status}${expiry}${proceed}${resend}${sendNew}${again}</div>`;
}

/** The script the default waiting page runs, when it has something to wait for. */
export function waitingScript(view: WaitingView): string | undefined {
  return isLive(view.flowStatus) && view.polls ? view.liveScript : undefined;
}
