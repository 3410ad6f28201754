import type { IncomingMessage } from 'node:http';
import { en } from './en.js';
import type { MessageKey, Messages } from './en.js';
import { es } from './es.js';
import { hi } from './hi.js';
import { id } from './id.js';
import { ptBR } from './pt-BR.js';

export type { MessageKey, Messages } from './en.js';

/** The catalogues built into the package, by BCP 47 tag. */
export const BUILT_IN_MESSAGES: Readonly<Record<string, Messages>> = { en, hi, id, es, 'pt-BR': ptBR };

/** Languages written right to left: their pages get `dir="rtl"`. */
const RTL = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'ks', 'ku', 'ps', 'sd', 'ug', 'ur', 'yi']);

/**
 * What the app may say about the package's words: the locale (fixed, or chosen per request; when
 * it gives nothing, the browser's `Accept-Language` chooses), and messages per locale, which
 * override single built-in sentences or add a whole language (missing keys fall back to English).
 */
export interface LocaleOptions {
  /** A BCP 47 tag such as 'hi' or 'pt-BR', or a function choosing one per request (the user's setting, say). */
  locale?: string | ((req: IncomingMessage) => string | undefined);
  /**
   * Messages by locale: `{ es: { 'approval.approve': 'Aprobar ahora' } }` overrides one
   * sentence; `{ ar: { ... } }` adds Arabic (right to left).
   */
  messages?: Readonly<Record<string, Partial<Messages>>>;
}

/** The words of one answer: its locale, its direction, and the sentence for each key. */
export interface Translator {
  locale: string;
  dir: 'ltr' | 'rtl';
  /** The sentence for `key`, with `{name}` filled from `values` (as plain text). */
  t(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
}

/** The translator for a request: the app's choice first, then `Accept-Language`, then English. */
export function translatorFor(req: IncomingMessage | undefined, options: LocaleOptions = {}): Translator {
  const available = [...new Set([...Object.keys(BUILT_IN_MESSAGES), ...Object.keys(options.messages ?? {})])];
  const chosen = typeof options.locale === 'function' && req ? options.locale(req) : options.locale;
  const locale =
    (typeof chosen === 'string' ? negotiate(chosen, available) : undefined) ??
    negotiate(String(req?.headers['accept-language'] ?? ''), available) ??
    'en';
  const catalogue: Messages = { ...en, ...BUILT_IN_MESSAGES[locale], ...options.messages?.[locale] };
  const language = locale.split('-')[0]!.toLowerCase();
  return {
    locale,
    dir: RTL.has(language) ? 'rtl' : 'ltr',
    t: (key, values) => fill(catalogue[key] ?? en[key], values),
  };
}

function fill(template: string, values: Readonly<Record<string, string | number>> | undefined): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/**
 * The best of `available` for a header such as `pt-BR,pt;q=0.9,en;q=0.5` (RFC 4647 lookup by
 * weight): an exact tag wins, then the same language in another region (`pt-PT` reads `pt-BR`
 * better than English), and `q=0` excludes. Undefined when nothing fits.
 */
export function negotiate(header: string, available: readonly string[]): string | undefined {
  const wanted = header
    .split(',')
    .slice(0, 20) // a header is short; a long one is not worth parsing
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((w) => w.tag !== '' && w.tag !== '*' && w.q > 0 && /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(w.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const lower = available.map((a) => a.toLowerCase());
  for (const { tag } of wanted) {
    const exact = lower.indexOf(tag);
    if (exact >= 0) return available[exact];
    const language = tag.split('-')[0]!;
    const same = lower.findIndex((a) => a === language || a.split('-')[0] === language);
    if (same >= 0) return available[same];
  }
  return undefined;
}
