import type { BotCheckWidget } from '../botCheck/botCheck.js';
import type { ApprovalOutcome } from '../errors/flowCodes.js';
import type { IncomingMessage } from 'node:http';
import type { LocaleOptions, MessageKey, Translator } from './messages/index.js';
import type { PageTheme } from './theme.js';

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

/** A text field of the sign-in form. */
export interface SignInField {
  /** The body field it posts as (the send route's `emailField` / `mobileField`). */
  name: string;
  label: string;
  /** What was typed before (kept when the send refused it), else `''`. */
  value: string;
  /** A short help line under the label (the mobile's country code), if any. */
  hint?: string;
  /** The refusal of this field, to show next to it (with `aria-describedby`/`aria-invalid`). */
  error?: string;
}

/** A channel the person may choose for a mobile number. */
export type SignInChannel = 'WHATSAPP' | 'SMS';

/** The package's sign-in page: e-mail and/or mobile, an optional channel choice, the send's refusal. */
export interface SignInView extends PageViewBase {
  page: 'signIn';
  /** Posts to `action` (the send route), with `hidden` (such as `returnTo`) as they are. */
  form: PageForm;
  /** The e-mail field, when e-mail is offered. */
  email?: SignInField;
  /** The mobile field, when mobile numbers are offered. */
  mobile?: SignInField;
  /** The WhatsApp / SMS choice for the mobile, when offered (radio buttons named `name`). */
  channel?: {
    name: string;
    legend: string;
    options: Array<{ value: SignInChannel; label: string; checked: boolean }>;
  };
  /** The send's refusal: next to its field when it names one, above the form otherwise. */
  error?: { message: string; field?: 'email' | 'mobile' };
  /** The bot check's widget, when the strategy has one (`botCheck`): drawn inside the form. */
  botCheck?: BotCheckWidget;
}

/** Where a login waiting for the link stands (`status()`'s `status`). */
export type WaitingStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'none';

/** The page the asking browser shows while the link is out: the number, the live status, resend. */
export interface WaitingView extends PageViewBase {
  page: 'waiting';
  /** Where the flow stands (`status` is the HTTP status, as on every view). */
  flowStatus: WaitingStatus;
  /** The two-digit number to type on the phone, while the flow waits for it. */
  match?: string;
  /** Where the link went, masked by the caller (`j***@example.com`). */
  sentTo: string[];
  /** Each destination with the channel its link went by (`WHATSAPP`, `SMS`, `EMAIL`), when known. */
  sentVia: Array<{ channel: 'WHATSAPP' | 'SMS' | 'EMAIL'; to: string }>;
  /**
   * A button into the messaging app (on a phone): `href` is one of the service's own links
   * (`SERVICE_APP_LINKS`, src/web/appLinks.ts), never a URI as received.
   */
  openApp?: { href: string; label: string };
  /** When the link expires. */
  expiresAt?: Date;
  /** The seconds left until `expiresAt` when the view was built (what the countdown starts from). */
  expiresInSeconds?: number;
  /** GET answers JSON `{ status, match?, expiresAt? }`: the page's script polls it. */
  statusUrl: string;
  /** Where the browser goes once the phone approved (the callback, which finishes the login). */
  continueUrl: string;
  /**
   * Asks for the link again; its buttons wait `resendInSeconds` first. `choices`: each way to
   * get it again, each a submit button of the form (`channel` posted as its name and value when
   * it is another channel); `button` is the label of the last (the same channel again).
   */
  resend?: PageForm & {
    resendInSeconds?: number;
    /** "Didn't get it?", above the buttons. */
    heading?: string;
    choices?: Array<{ channel?: 'WHATSAPP' | 'SMS'; label: string; kind: 'instead' | 'same' }>;
  };
  /** Back to the sign-in page. */
  startAgain: { href: string; label: string };
  /**
   * The script that keeps the page live (polls `statusUrl`, counts down, goes on when approved).
   * Its hash is the only script the waiting page's CSP allows: a `render` that wants a live page
   * puts it in `<script>` exactly as given (it reads the `data-` attributes of `#waiting`, see
   * docs/pages-and-translations.md).
   */
  liveScript: string;
  /** Whether the page asks for the status while it waits (see `WaitingInput.poll`). */
  polls: boolean;
  /** Once the flow is over (expired, used): one click sends a new link where the last one went. */
  sendNew?: PageForm & { text: string };
}

/** The page a failed callback shows: what happened, what to do, and the way back to the sign-in. */
export interface ErrorView extends PageViewBase {
  page: 'error';
  /** The stable code of the failure (`CODE_REJECTED`, `WRONG_BROWSER` ...). */
  code: string;
  /** What happened, in the person's language. */
  message: string;
  /** What to do now. */
  next: string;
  /** Back to the sign-in page. */
  startAgain: { href: string; label: string };
  /**
   * In the browser that asked for the link, while its session still knows where it went: one
   * click sends a new link there (`resend=1`, within the send limits). `text` names where.
   */
  sendNew?: PageForm & { text: string };
}

/** Every page the package can show a person. */
export type PageView = ApprovalView | OutcomeView | ConfirmView | SignInView | WaitingView | ErrorView;

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
