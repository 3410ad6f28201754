import { openJson, sealJson, UNOPENED } from '../crypto.js';
import { maskedPhone } from '../contact/phone.js';
import { maskDestination } from '../diagnostics.js';
import type { LoginSetup } from '../login/compose.js';
import { removeSessionValue, sessionOf, setSessionValue } from '../session/session.js';
import { serviceAppLink } from '../web/appLinks.js';
import type { HttpRequest } from '../web/request.js';
import type { MagicLinkChannel } from '../wire/types.js';
import type { SendInput } from './sendInput.js';
import type { SentLink } from './sendUnit.js';

/**
 * What the waiting page keeps in the session between a send and the login: where the link went
 * (masked, with its channel, for the page), the messaging app's link when it is one of the
 * service's own (web/appLinks.ts), and, sealed, what to send again (so no address and no flow id
 * travel in the page or in a cookie in clear). A login regenerates the session, which drops it;
 * an expired link keeps it (for "send a new link") until `KEPT_FOR_MS` after the send.
 */
const WAITING_KEY = 'otplessWaiting';
const CONTEXT = 'waiting page resend';
/** How long after its send the record still offers a new link (an expired one's error page). */
export const KEPT_FOR_MS = 60 * 60 * 1000;

/** The channel a link went by, as the page names it. */
import type { SentChannel } from './againChoices.js';
export type { SentChannel };

/** What a resend sends again. */
export interface ResendInput {
  email?: string;
  mobile?: string;
  /** The channel the mobile's link went by last. */
  channel?: MagicLinkChannel;
  /** The flow of the last send: another send joins it while it waits. */
  flowId?: string;
}

export interface WaitingRecord {
  /** Masked destinations, for the page. */
  to: string[];
  /** Each destination with the channel its link went by. */
  via: Array<{ channel: SentChannel; to: string }>;
  /** The service's messaging-app link of the last send, when it is one of `SERVICE_APP_LINKS`. */
  app?: string;
  /** Epoch ms of the latest send. */
  sentAt: number;
}

const CHANNELS: readonly string[] = ['WHATSAPP', 'SMS', 'EMAIL'];

/** Written by the mount after each send that went out. */
export function rememberWaiting(
  setup: LoginSetup,
  req: HttpRequest,
  input: SendInput,
  link: Pick<SentLink, 'sent' | 'flowId'>,
  now: number,
): void {
  const session = sessionOf(req);
  if (!session) return;
  const mobile = link.sent.find((s) => s.type === 'MOBILE');
  const channel = mobile && mobile.channel !== 'EMAIL' ? mobile.channel : input.channel;
  const resend: ResendInput = {
    ...(input.address !== undefined ? { email: input.address } : {}),
    ...(input.e164 !== undefined ? { mobile: input.e164 } : {}),
    ...(channel !== undefined ? { channel } : {}),
    flowId: link.flowId,
  };
  const via: WaitingRecord['via'] = [];
  if (input.address !== undefined) via.push({ channel: 'EMAIL', to: maskDestination(input.address) });
  if (input.e164 !== undefined) via.push({ channel: channel ?? 'WHATSAPP', to: maskedPhone(input.e164) });
  const app = serviceAppLink(mobile?.destinationUri)?.href;
  setSessionValue(session, WAITING_KEY, {
    to: via.map((v) => v.to),
    via,
    ...(app !== undefined ? { app } : {}),
    sentAt: now,
    resend: sealJson(setup.resendKey, resend, CONTEXT),
  });
}

/** The waiting record of this session, or `undefined` (none, too old, or one altered in the store). */
export function readWaiting(req: HttpRequest, now = Date.now()): WaitingRecord | undefined {
  const value = sessionOf(req)?.[WAITING_KEY] as Record<string, unknown> | undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { to, sentAt, via, app } = value;
  if (!Array.isArray(to) || !to.every((t) => typeof t === 'string') || typeof sentAt !== 'number') return undefined;
  if (now - sentAt > KEPT_FOR_MS) return undefined;
  const channels = Array.isArray(via)
    ? via.filter(
        (v): v is WaitingRecord['via'][number] =>
          typeof v === 'object' && v !== null && CHANNELS.includes(v.channel) && typeof v.to === 'string',
      )
    : [];
  // Checked again as it is read: only a link of the service's own shape reaches a page.
  const appLink = serviceAppLink(app)?.href;
  return { to: to as string[], via: channels, ...(appLink !== undefined ? { app: appLink } : {}), sentAt };
}

/** What to send again, opened under the setup's key, or `undefined`. */
export function readResend(setup: LoginSetup, req: HttpRequest, now = Date.now()): ResendInput | undefined {
  if (!readWaiting(req, now)) return undefined;
  const sealed = (sessionOf(req)?.[WAITING_KEY] as { resend?: unknown } | undefined)?.resend;
  const value = openJson(setup.resendKey, sealed, CONTEXT);
  if (value === UNOPENED || !value || typeof value !== 'object') return undefined;
  return value as ResendInput;
}

/** Forgets the waiting record (a denial: nothing is offered again). */
export function forgetWaiting(req: HttpRequest): void {
  const session = sessionOf(req);
  if (session) removeSessionValue(session, WAITING_KEY);
}
