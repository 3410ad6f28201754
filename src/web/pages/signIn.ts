import type { BotCheckWidget } from '../../botCheck/botCheck.js';
import type { MessageKey } from '../messages/index.js';
import type { PageForm, SignInChannel, SignInField, SignInView } from '../view.js';
import { viewBase } from '../view.js';
import { translate } from './context.js';
import type { PageContext } from './context.js';
import { escapeHtml } from './document.js';
import { formHtml } from './forms.js';

/** What the sign-in page is drawn from (the mount gives it from the send's options and last refusal). */
export interface SignInInput {
  /** The send route the form posts to. */
  action: string;
  /** The contacts asked for, in order: both by default. */
  contacts?: ReadonlyArray<'email' | 'mobile'>;
  /** The body field names the send reads (`emailField`, `mobileField`, `channelField`). */
  names?: { email?: string; mobile?: string; channel?: string };
  /** The channels offered for a mobile number (a choice only with two or more). */
  channels?: readonly SignInChannel[];
  /** What was typed before, kept when the send refused it. */
  values?: { email?: string; mobile?: string; channel?: SignInChannel };
  /** The send's refusal, in the person's language: next to `field` when it names one. */
  error?: { message: string; field?: 'email' | 'mobile' };
  /** Hidden fields to post as they are (such as `returnTo`). */
  hidden?: Readonly<Record<string, string>>;
  /** The status to answer with: 200, or the refusal's (400, 429 ...). */
  status?: number;
  /** The bot check's widget to draw in the form. */
  botCheck?: BotCheckWidget | undefined;
  /** Where a number typed without `+` is read (the send's `defaultCountry`): the hint says so. */
  defaultCountry?: string | undefined;
  /** The passkey routes, when the mount has `passkeys` on. */
  passkey?: { scriptUrl: string; optionsUrl: string; verifyUrl: string } | undefined;
}

const TEXT: Record<'email' | 'mobile' | 'both', MessageKey> = {
  email: 'signIn.text.email',
  mobile: 'signIn.text.mobile',
  both: 'signIn.text.both',
};

/**
 * The sign-in page: the e-mail and/or mobile field, the WhatsApp / SMS choice when the send
 * lets the person choose, and the send's refusal next to the field it is about.
 *
 * @example
 * await showPage(ctx, signInView(ctx, { action: '/auth/magic-link', hidden: { returnTo: '/account' } }));
 */
export function signInView(ctx: PageContext, input: SignInInput): SignInView {
  const tr = translate(ctx);
  const contacts = input.contacts?.length ? [...new Set(input.contacts)] : (['email', 'mobile'] as const);
  const shows = (contact: 'email' | 'mobile'): boolean => contacts.includes(contact);
  const error = input.error;
  const country = input.defaultCountry ? countryName(tr.locale, input.defaultCountry) : undefined;
  const field = (contact: 'email' | 'mobile', label: MessageKey, hint?: MessageKey): SignInField => ({
    name: input.names?.[contact] ?? contact,
    label: tr.t(label),
    value: input.values?.[contact] ?? '',
    ...(hint ? { hint: tr.t(hint, country ? { country } : undefined) } : {}),
    ...(error?.field === contact ? { error: error.message } : {}),
  });
  const channels = [...new Set(input.channels ?? [])];
  const chosen = input.values?.channel ?? channels[0];
  const form: PageForm = {
    action: input.action,
    method: 'post',
    hidden: { ...input.hidden },
    button: tr.t('signIn.button'),
  };
  const which = shows('email') && shows('mobile') ? 'both' : shows('email') ? 'email' : 'mobile';
  const status = input.status ?? (error ? 400 : 200);
  return {
    ...viewBase(tr, ctx.options?.theme, status, 'signIn.title', [tr.t(TEXT[which])]),
    page: 'signIn',
    form,
    ...(input.botCheck ? { botCheck: input.botCheck } : {}),
    ...(shows('email') ? { email: field('email', 'signIn.emailLabel') } : {}),
    ...(shows('mobile')
      ? { mobile: field('mobile', 'signIn.mobileLabel', country ? 'signIn.mobileHintCountry' : 'signIn.mobileHint') }
      : {}),
    ...(shows('mobile') && channels.length > 1
      ? {
          channel: {
            name: input.names?.channel ?? 'channel',
            legend: tr.t('signIn.channelLegend'),
            options: channels.map((value) => ({
              value,
              label: tr.t(value === 'SMS' ? 'signIn.sms' : 'signIn.whatsapp'),
              checked: value === chosen,
            })),
          },
        }
      : {}),
    ...(error ? { error: { message: error.message, ...(error.field ? { field: error.field } : {}) } } : {}),
    ...(input.passkey
      ? {
          passkey: {
            ...input.passkey,
            button: tr.t('passkey.signIn.button'),
            say: {
              working: tr.t('passkey.working'),
              cancelled: tr.t('passkey.cancelled'),
              failed: tr.t('passkey.failed'),
            },
          },
        }
      : {}),
  };
}

/** The sign-in page's card. */
export function drawSignIn(view: SignInView): string {
  const paragraphs = view.text.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const error = view.error;
  // A refusal of no one field (nothing typed, the service down) stands above the form.
  const formError =
    error && !(error.field && view[error.field])
      ? `<p id="form-error" class="error" role="alert">${escapeHtml(error.message)}</p>`
      : '';
  // The field in error takes the focus; else the first field.
  const focus = error?.field && view[error.field] ? error.field : view.email ? 'email' : 'mobile';
  const both = Boolean(view.email && view.mobile);
  const passkey = view.passkey;
  const inputs = [
    view.email ? fieldHtml('email', view.email, !both, focus === 'email', passkey !== undefined) : '',
    both ? `<p class="or" aria-hidden="true">${escapeHtml(view.t('signIn.or'))}</p>` : '',
    view.mobile ? fieldHtml('mobile', view.mobile, !both, focus === 'mobile') : '',
    view.channel ? channelHtml(view.channel) : '',
    view.botCheck
      ? `<div class="${escapeHtml(view.botCheck.className)}" data-sitekey="${escapeHtml(view.botCheck.siteKey)}"></div>`
      : '',
  ].join('');
  return (
    paragraphs + (passkey ? passkeyHtml(passkey, view.t('signIn.or')) : '') + formError + formHtml(view.form, inputs)
  );
}

/**
 * "Sign in with a passkey", before the address form: hidden until the package's script finds
 * WebAuthn (so a browser without script, or without passkeys, sees the form alone).
 */
function passkeyHtml(passkey: NonNullable<SignInView['passkey']>, or: string): string {
  const data = {
    mode: 'signin',
    'options-url': passkey.optionsUrl,
    'verify-url': passkey.verifyUrl,
    'say-working': passkey.say.working,
    'say-cancelled': passkey.say.cancelled,
    'say-failed': passkey.say.failed,
  };
  const attributes = Object.entries(data)
    .map(([name, value]) => `data-${name}="${escapeHtml(value)}"`)
    .join(' ');
  return (
    `<div id="passkey" hidden ${attributes}>` +
    `<p><button type="button" id="passkey-button">${escapeHtml(passkey.button)}</button></p>` +
    `<p id="passkey-status" class="error" role="status"></p>` +
    `<p class="or" aria-hidden="true">${escapeHtml(or)}</p></div>`
  );
}

function fieldHtml(
  id: 'email' | 'mobile',
  field: SignInField,
  required: boolean,
  focus: boolean,
  passkeyAutofill = false,
): string {
  const described = [field.hint ? `${id}-hint` : '', field.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const kind =
    id === 'email'
      ? // With passkeys on, the field also offers the browser's passkeys (a conditional get()).
        `type="email" autocomplete="${passkeyAutofill ? 'username webauthn' : 'email'}" autocapitalize="none" spellcheck="false"`
      : 'type="tel" autocomplete="tel" inputmode="tel"';
  return (
    `<div class="field"><label for="${id}">${escapeHtml(field.label)}</label>` +
    (field.hint ? `<span class="hint" id="${id}-hint">${escapeHtml(field.hint)}</span>` : '') +
    `<input id="${id}" name="${escapeHtml(field.name)}" ${kind} maxlength="320" value="${escapeHtml(field.value)}"` +
    `${required ? ' required' : ''}${focus ? ' autofocus' : ''}${described ? ` aria-describedby="${described}"` : ''}` +
    `${field.error ? ' aria-invalid="true"' : ''}>` +
    (field.error ? `<p id="${id}-error" class="error" role="alert">${escapeHtml(field.error)}</p>` : '') +
    `</div>`
  );
}

function channelHtml(channel: NonNullable<SignInView['channel']>): string {
  const options = channel.options
    .map(
      (option) =>
        `<label class="choice"><input type="radio" name="${escapeHtml(channel.name)}" value="${escapeHtml(option.value)}"` +
        `${option.checked ? ' checked' : ''}>${escapeHtml(option.label)}</label>`,
    )
    .join('');
  return `<fieldset><legend>${escapeHtml(channel.legend)}</legend>${options}</fieldset>`;
}

/** A country's name in the page's language (`IN` -> India, Índia, भारत), or the code itself. */
function countryName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale, 'en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
