import type { ConfirmView } from '../view.js';
import { viewBase } from '../view.js';
import { SELF, translate } from './context.js';
import type { PageContext } from './context.js';
import { escapeHtml } from './document.js';
import { formHtml } from './forms.js';

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

/** The confirm page's card: its sentence and the button. */
export function drawConfirm(view: ConfirmView): string {
  return view.text.map((line) => `<p>${escapeHtml(line)}</p>`).join('') + formHtml(view.form, '');
}
