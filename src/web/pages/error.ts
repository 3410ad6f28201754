import { en } from '../messages/en.js';
import type { MessageKey, Translator } from '../messages/index.js';
import type { ErrorView } from '../view.js';
import { viewBase } from '../view.js';
import { translate } from './context.js';
import type { PageContext } from './context.js';
import { escapeHtml } from './document.js';

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
  };
}

/** The error page's card. */
export function drawError(view: ErrorView): string {
  return (
    `<p>${escapeHtml(view.message)}</p><p>${escapeHtml(view.next)}</p>` +
    `<p><a class="button" href="${escapeHtml(view.startAgain.href)}">${escapeHtml(view.startAgain.label)}</a></p>` +
    `<p class="code">${escapeHtml(view.t('error.code', { code: view.code }))}</p>`
  );
}
