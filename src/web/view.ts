import type { IncomingMessage } from 'node:http';
import type { LocaleOptions, MessageKey, Translator } from './messages/index.js';
import type { PageTheme } from './theme.js';

/** How an approval on the other device ended. */
export type ApprovalOutcome = 'approved' | 'wrongNumber' | 'denied' | 'rejected' | 'gone';

/** A form of a page: where it posts, its hidden fields, its button's label. */
export interface PageForm {
  /**
   * Where the form posts: `''` means back to this page's own URL (give the form no `action`
   * attribute), so the link's code stays in the query and never in the page.
   */
  action: string;
  method: 'post';
  /** Hidden fields to send as they are (names and values are plain text: escape them). */
  hidden: Readonly<Record<string, string>>;
  /** The submit button's label. */
  button: string;
}

/** What every page's view model holds. All strings are plain text: escape them in HTML. */
export interface PageViewBase {
  /** The HTTP status the page is answered with (the app's render cannot change it). */
  status: number;
  /** The BCP 47 locale of the words, for `<html lang>`. */
  locale: string;
  /** The writing direction, for `<html dir>`. */
  dir: 'ltr' | 'rtl';
  /** The page's heading (and title). */
  title: string;
  /** Its paragraphs, in order. */
  text: string[];
  /** The app's theme, when it gave one. */
  theme: PageTheme | undefined;
  /** Any other sentence of the catalogue, in this locale. */
  t: Translator['t'];
}

/** The page a link shows on another device than the one that asked: approve with the number, or deny. */
export interface ApprovalView extends PageViewBase {
  page: 'approval';
  /** The browser that asked, as far as its user agent tells, and when. */
  askedBy: { browser?: string; os?: string; at: Date };
  /** Set when the form came back without a number: say it next to the field. */
  error?: string;
  /** The approve form: one text field, `field`, for the two-digit number. */
  approve: PageForm & { field: 'match'; label: string };
  /** The "This wasn't me" form. */
  deny: PageForm;
}

/** The page the approving device sees once it answered. */
export interface OutcomeView extends PageViewBase {
  page: 'outcome';
  outcome: ApprovalOutcome;
}

/** The page `confirm: true` shows: a button that spends the code by POST. */
export interface ConfirmView extends PageViewBase {
  page: 'confirm';
  form: PageForm;
}

/** Every page the package can show a person. */
export type PageView = ApprovalView | OutcomeView | ConfirmView;

/**
 * Draws a page as a whole HTML document, or returns `undefined` to keep the package's page. The
 * package still answers it, with its status and its security headers (no-store, CSP,
 * frame-ancestors): a page drawn here may not load scripts, and its forms post to this site.
 */
export type PageRender = (view: PageView, req: IncomingMessage) => string | undefined | Promise<string | undefined>;

/** The strategy's `pages` option: the words, the look, or the whole drawing of its pages. */
export interface PageOptions extends LocaleOptions {
  /** The app draws the pages (any template engine); `undefined` for a page keeps the default. */
  render?: PageRender;
  /** The default pages in the app's name, logo and colours. */
  theme?: PageTheme;
}

/** Keys every page view shares, from its translator. */
export function viewBase(
  tr: Translator,
  theme: PageTheme | undefined,
  status: number,
  title: MessageKey,
  text: string[],
): PageViewBase {
  return { status, locale: tr.locale, dir: tr.dir, title: tr.t(title), text, theme, t: tr.t };
}

export type { PageTheme } from './theme.js';
export type { LocaleOptions, MessageKey, Messages } from './messages/index.js';
