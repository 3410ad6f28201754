import { optionError, ownOptions } from '../options.js';
import { en } from './messages/en.js';
import { checkTheme } from './theme.js';
import type { Messages, PageOptions } from './view.js';

const TAG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** Checks the strategy's `pages` option once, at start-up, naming the option that is wrong. */
export function checkPageOptions(prefix: string, pages: unknown): PageOptions | undefined {
  if (pages === undefined) return undefined;
  if (typeof pages !== 'object' || pages === null) {
    throw optionError(prefix, 'pages', 'an object with render, theme, locale or messages');
  }
  // Own keys only, kept in an object with no prototype: a polluted Object.prototype is no option.
  const own = ownOptions(pages as PageOptions);
  const { render, theme, locale, messages } = own;
  if (render !== undefined && typeof render !== 'function') {
    throw optionError(prefix, 'pages.render', 'a function (view, req) returning the HTML of the page, or undefined');
  }
  if (locale !== undefined && typeof locale !== 'function' && !(typeof locale === 'string' && TAG.test(locale))) {
    throw optionError(prefix, 'pages.locale', "a locale such as 'hi' or 'pt-BR', or a function (req) returning one");
  }
  if (messages !== undefined) {
    if (typeof messages !== 'object' || messages === null) {
      throw optionError(prefix, 'pages.messages', 'an object of catalogues by locale, such as { ar: { ... } }');
    }
    for (const [tag, catalogue] of Object.entries(messages)) {
      if (!TAG.test(tag))
        throw optionError(prefix, `pages.messages['${tag.slice(0, 20)}']`, "keyed by a locale such as 'ar'");
      if (typeof catalogue !== 'object' || catalogue === null) {
        throw optionError(prefix, `pages.messages.${tag}`, 'an object of messages');
      }
      for (const [key, text] of Object.entries(catalogue)) {
        // A misspelt key would silently leave the English sentence: named at start-up instead.
        if (!Object.hasOwn(en, key)) {
          throw optionError(
            prefix,
            `pages.messages.${tag}['${key.slice(0, 40)}']`,
            'a message key of the catalogue (see docs/pages-and-translations.md)',
          );
        }
        if (typeof text !== 'string') throw optionError(prefix, `pages.messages.${tag}['${key}']`, 'a string');
      }
    }
  }
  own.theme = checkTheme(prefix, theme);
  if (messages !== undefined) {
    const catalogues: Record<string, Partial<Messages>> = ownOptions({ ...messages });
    for (const tag of Object.keys(catalogues)) catalogues[tag] = ownOptions(catalogues[tag]!);
    own.messages = catalogues;
  }
  return own;
}
