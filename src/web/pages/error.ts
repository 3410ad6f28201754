import { en } from '../messages/en.js';
import type { MessageKey, Translator } from '../messages/index.js';
import type { ErrorView } from '../view.js';
import { viewBase } from '../view.js';
import { translate } from './context.js';
import type { PageContext } from './context.js';
import { escapeHtml } from './document.js';
import { hiddenHtml } from './forms.js';

/** What the error page is drawn from: the callback's refusal (`fail({ code, message }, status)`) or error. */
export interface ErrorInput {
  /** The stable code: a callback failure (`CODE_REJECTED` ...) or a request failure (`SERVICE_ERROR` ...). */
  code: string;
  /** The HTTP status to answer with (4xx or 5xx; anything else answers 500). */
  status: number;
  /**
   * What happened, in the person's language (the refusal's own `message`). Without it, the
   * catalogue's `failure.<code>` says it, or a sentence by the status.
   */
  message?: string;
  /** The sign-in page. */
  startAgainUrl: string;
  /**
   * In the browser that asked for the link: the form that sends a new one where it went (`to`,
   * masked), in one click.
   */
  sendNew?: { action: string; hidden?: Readonly<Record<string, string>>; to?: readonly string[] };
}

/** A code as the page shows it: upper-case words only, so nothing else is ever echoed. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

function messageFor(tr: Translator, code: string, status: number): string {
  const key = `failure.${code}`;
  if (Object.hasOwn(en, key)) return tr.t(key as MessageKey);
  return tr.t(status >= 500 ? 'error.service' : 'error.unknown');
}

/**
 * The page a failed callback shows: what happened, what to do, the code (for support), and the
 * way back to the sign-in page. Never the error's details or stack: those are the server log's.
 *
 * @example
 * await showPage(ctx, errorView(ctx, { code: info.code, status, message: info.message, startAgainUrl: '/auth/sign-in' }));
 */
export function errorView(ctx: PageContext, input: ErrorInput): ErrorView {
  const tr = translate(ctx);
  const status = Number.isInteger(input.status) && input.status >= 400 && input.status <= 599 ? input.status : 500;
  const code = CODE.test(input.code) ? input.code : 'UNKNOWN';
  const message = input.message?.trim() ? input.message : messageFor(tr, code, status);
  const next = tr.t('error.next');
  return {
    ...viewBase(tr, ctx.options?.theme, status, 'error.title', [message, next]),
    page: 'error',
    code,
    message,
    next,
    startAgain: { href: input.startAgainUrl, label: tr.t('pages.startAgain') },
    ...(input.sendNew
      ? {
          sendNew: {
            action: input.sendNew.action,
            method: 'post' as const,
            hidden: { ...input.sendNew.hidden },
            button: tr.t('error.sendNew'),
            text: input.sendNew.to?.length ? tr.t('error.sendNewTo', { to: input.sendNew.to.join(', ') }) : '',
          },
        }
      : {}),
  };
}

/** The error page's card. */
export function drawError(view: ErrorView): string {
  const sendNew = view.sendNew
    ? `<form method="post" action="${escapeHtml(view.sendNew.action)}" id="send-new">${hiddenHtml(view.sendNew.hidden)}` +
      (view.sendNew.text ? `<p>${escapeHtml(view.sendNew.text)}</p>` : '') +
      `<p><button type="submit">${escapeHtml(view.sendNew.button)}</button></p></form>`
    : '';
  // With a new link one click away, "start again" is the other way, not the main one.
  const startAgain = view.sendNew
    ? `<p><a href="${escapeHtml(view.startAgain.href)}">${escapeHtml(view.startAgain.label)}</a></p>`
    : `<p><a class="button" href="${escapeHtml(view.startAgain.href)}">${escapeHtml(view.startAgain.label)}</a></p>`;
  return (
    `<p>${escapeHtml(view.message)}</p><p>${escapeHtml(view.next)}</p>` +
    sendNew +
    startAgain +
    `<p class="code">${escapeHtml(view.t('error.code', { code: view.code }))}</p>`
  );
}
