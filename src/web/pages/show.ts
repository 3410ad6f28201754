import type { PageView } from '../view.js';
import { drawApproval, drawOutcome } from './approval.js';
import { drawConfirm } from './confirm.js';
import type { PageContext } from './context.js';
import { sendPage } from './document.js';
import { drawError } from './error.js';
import { drawSignIn } from './signIn.js';
import { drawWaiting, waitingHead, waitingScript } from './waiting.js';

/**
 * Answers a page: the app's render function draws it when it gives one and returns HTML, the
 * package's default otherwise; either way with the view's status and the security headers.
 * Only the waiting page may run a script: its own live status, allowed by hash.
 */
export async function showPage(ctx: PageContext, view: PageView): Promise<void> {
  const script = view.page === 'waiting' ? waitingScript(view) : undefined;
  // The sign-in page with a bot check loads the provider's widget (and its CSP allows it).
  const widget =
    view.page === 'signIn' && view.botCheck ? { widget: { src: view.botCheck.scriptUrl, csp: view.botCheck.csp } } : {};
  // The sign-in page with passkeys on loads the package's passkey script (its CSP allows that URL).
  const file = view.page === 'signIn' && view.passkey ? { scriptFile: view.passkey.scriptUrl } : {};
  const html = ctx.options?.render ? await ctx.options.render(view, ctx.req) : undefined;
  if (typeof html === 'string') {
    return sendPage(ctx.res, {
      status: view.status,
      title: view.title,
      bodyHtml: '',
      html,
      ...(script !== undefined ? { script } : {}),
      ...widget,
      ...file,
    });
  }
  sendPage(ctx.res, {
    status: view.status,
    title: view.title,
    bodyHtml: drawBody(view),
    lang: view.locale,
    dir: view.dir,
    theme: view.theme,
    ...(view.page === 'waiting' ? { headHtml: waitingHead(view) } : {}),
    ...(script !== undefined ? { script } : {}),
    ...widget,
    ...file,
  });
}

/** The card's body of the package's own page for a view. */
function drawBody(view: PageView): string {
  switch (view.page) {
    case 'approval':
      return drawApproval(view);
    case 'outcome':
      return drawOutcome(view);
    case 'confirm':
      return drawConfirm(view);
    case 'signIn':
      return drawSignIn(view);
    case 'waiting':
      return drawWaiting(view);
    case 'error':
      return drawError(view);
  }
}
