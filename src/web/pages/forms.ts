import type { PageForm } from '../view.js';
import { SELF } from './context.js';
import { escapeHtml } from './document.js';

/** The hidden inputs of a form, names and values escaped. */
export function hiddenHtml(hidden: PageForm['hidden']): string {
  return Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/**
 * A POST form: its hidden fields, the given (trusted) fields, and its button. An empty `action`
 * gives no attribute, so the form posts back to the page's own URL.
 */
export function formHtml(
  form: PageForm,
  fields: string,
  button: { className?: string; attributes?: string } = {},
): string {
  const cls = button.className ? ` class="${button.className}"` : '';
  const action = form.action === SELF ? '' : ` action="${escapeHtml(form.action)}"`;
  return (
    `<form method="post"${action}>${hiddenHtml(form.hidden)}${fields}` +
    `<p><button type="submit"${cls}${button.attributes ?? ''}>${escapeHtml(form.button)}</button></p></form>`
  );
}
