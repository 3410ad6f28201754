// A tiny HTML templating helper: every interpolated value is escaped unless it is itself
// the result of `html`, so a name or an e-mail address can never inject markup.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** Markup that is already safe: the result of `html`. */
class SafeHtml {
  constructor(value) {
    this.value = value;
  }
  toString() {
    return this.value;
  }
}

function render(value) {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  // `cond && html\`...\`` leaves false/null/undefined when the condition fails: render nothing.
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(value);
}

/** Trusted markup written by the app itself (a stylesheet), inserted without escaping. */
export function raw(markup) {
  return new SafeHtml(markup);
}

/**
 * Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` results and arrays
 * of them are inserted as they are.
 */
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}
