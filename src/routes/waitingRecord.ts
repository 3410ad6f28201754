import { openJson, sealJson, UNOPENED } from '../crypto.js';
import { maskDestination } from '../diagnostics.js';
import type { LoginSetup } from '../login/compose.js';
import { removeSessionValue, sessionOf, sessionValue, setSessionValue } from '../session/session.js';
import type { HttpRequest } from '../web/request.js';
import { ownFields } from '../web/request.js';
import type { MagicLinkChannel } from '../wire/types.js';
import type { SendInput } from './sendInput.js';

/**
 * What the waiting page keeps in the session between a send and the login: where the link went
 * (masked, for the page) and, sealed, what to send again on "resend" (so no address travels in
 * the page or in a cookie in clear). A login regenerates the session, which drops it.
 */
const WAITING_KEY = 'otplessWaiting';
const CONTEXT = 'waiting page resend';

/** What a resend sends again. */
export interface ResendInput {
  email?: string;
  mobile?: string;
  channel?: MagicLinkChannel;
}

export interface WaitingRecord {
  /** Masked destinations, for the page. */
  to: string[];
  /** Epoch ms of the latest send. */
  sentAt: number;
}

/** Written by the mount after each send that went out. */
export function rememberWaiting(setup: LoginSetup, req: HttpRequest, input: SendInput, now: number): void {
  const session = sessionOf(req);
  if (!session) return;
  const resend: ResendInput = {
    ...(input.address !== undefined ? { email: input.address } : {}),
    ...(input.e164 !== undefined ? { mobile: input.e164 } : {}),
    ...(input.channel !== undefined ? { channel: input.channel } : {}),
  };
  const to = input.destinations.map((d) => maskDestination(d.value));
  setSessionValue(session, WAITING_KEY, { to, sentAt: now, resend: sealJson(setup.resendKey, resend, CONTEXT) });
}

/** The waiting record of this session, or `undefined` (none, or one altered in the store). */
export function readWaiting(req: HttpRequest): WaitingRecord | undefined {
  const value = sessionValue(sessionOf(req), WAITING_KEY) as { to?: unknown; sentAt?: unknown } | undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { to, sentAt } = value;
  if (!Array.isArray(to) || !to.every((t) => typeof t === 'string') || typeof sentAt !== 'number') return undefined;
  return { to: to as string[], sentAt };
}

/** What to send again, opened under the setup's key, or `undefined`. */
export function readResend(setup: LoginSetup, req: HttpRequest): ResendInput | undefined {
  const sealed = ownFields(sessionValue(sessionOf(req), WAITING_KEY)).resend;
  const value = openJson(setup.resendKey, sealed, CONTEXT);
  if (value === UNOPENED || !value || typeof value !== 'object') return undefined;
  return value as ResendInput;
}

/** Forgets the waiting record ("start again"). */
export function forgetWaiting(req: HttpRequest): void {
  const session = sessionOf(req);
  if (session) removeSessionValue(session, WAITING_KEY);
}
