/**
 * The one real send of the check: a magic link to the given e-mail and/or mobile number, with
 * the check's flow parameter in redirect_uri. What the send answered settles whether
 * `channel=SMS` is honoured; the link it delivers settles the rest.
 */

import type { OtplessClient } from '../client/index.js';
import type { MagicLinkChannel, SendMagicLinkResponse } from '../wire/types.js';
import { SERVICE_ERROR_CODES } from '../wire/serviceErrors.js';
import { attempt, briefly } from './answers.js';
import type { ChannelFinding, Observations, ServiceAnswer } from './types.js';

/** What to send. */
export interface SendPlan {
  email?: string;
  mobile?: string;
  /** Channel of the mobile link. */
  channel: MagicLinkChannel;
  redirectUri: string;
  /** Link lifetime in seconds: at least as long as the check waits for the click. */
  expiry: number;
}

/** The send's answer (when it worked) and what it says about the channel. */
export interface SendOutcome {
  sent?: SendMagicLinkResponse;
  /** Why no link went out. */
  error?: ServiceAnswer;
  channel: ChannelFinding;
  /** The contacts a link went to, for the prompt. */
  sentTo: Array<'e-mail' | 'mobile'>;
}

/** Codes by which the service refuses the mobile part only: the e-mail alone can still go. */
const MOBILE_ONLY_REFUSALS: ReadonlySet<string> = new Set([
  SERVICE_ERROR_CODES.smsNotEnabledForCountry,
  SERVICE_ERROR_CODES.invalidPhone,
  SERVICE_ERROR_CODES.invalidPhoneChannel,
]);

/** Sends the link; when the mobile part alone is refused and an e-mail was given, sends to the e-mail only. */
export async function sendLink(client: OtplessClient, plan: SendPlan, observed: Observations): Promise<SendOutcome> {
  const send = (withMobile: boolean) =>
    attempt('sendMagicLink', observed, () =>
      client.sendMagicLink({
        redirectUri: plan.redirectUri,
        expiry: plan.expiry,
        ...(plan.email !== undefined ? { email: plan.email } : {}),
        ...(withMobile && plan.mobile !== undefined ? { mobileNumber: plan.mobile, channel: plan.channel } : {}),
      }),
    );
  const first = await send(true);
  if (first.ok) {
    return { sent: first.value, channel: channelFinding(plan, first.value), sentTo: contacts(plan, true) };
  }
  const refusedMobile =
    plan.mobile !== undefined &&
    first.answer.errorCode !== undefined &&
    MOBILE_ONLY_REFUSALS.has(first.answer.errorCode);
  const channel = channelFailure(plan, first.answer, refusedMobile);
  if (refusedMobile && plan.email !== undefined) {
    const second = await send(false);
    if (second.ok) return { sent: second.value, channel, sentTo: contacts(plan, false) };
    return { error: second.answer, channel, sentTo: [] };
  }
  return { error: first.answer, channel, sentTo: [] };
}

function contacts(plan: SendPlan, withMobile: boolean): Array<'e-mail' | 'mobile'> {
  return [
    ...(plan.email !== undefined ? (['e-mail'] as const) : []),
    ...(withMobile && plan.mobile !== undefined ? (['mobile'] as const) : []),
  ];
}

/** A WhatsApp destination in an SMS send's answer suggests the channel was ignored. */
function looksLikeWhatsApp(uri: string): boolean {
  return /wa\.me|whatsapp/i.test(uri);
}

function channelFinding(plan: SendPlan, sent: SendMagicLinkResponse): ChannelFinding {
  if (plan.mobile === undefined) return { outcome: 'skipped', answer: 'not tried: no --mobile given' };
  const mobile = sent.requestIds.find((entry) => entry.type === 'MOBILE');
  if (!mobile) {
    return { outcome: 'unexpected', channel: plan.channel, answer: 'the send answered no MOBILE entry' };
  }
  const destinationUri = mobile.destinationUri ?? null;
  const where = destinationUri === null ? 'no destinationUri' : `destinationUri ${destinationUri}`;
  if (plan.channel !== 'SMS') {
    return {
      outcome: 'skipped',
      channel: plan.channel,
      destinationUri,
      answer: `not tried (--channel ${plan.channel}); the MOBILE entry has ${where}`,
    };
  }
  if (destinationUri !== null && looksLikeWhatsApp(destinationUri)) {
    return {
      outcome: 'unexpected',
      channel: 'SMS',
      destinationUri,
      answer: `doubtful: the SMS send answered a WhatsApp ${where}; check which message arrived`,
    };
  }
  return {
    outcome: 'expected',
    channel: 'SMS',
    destinationUri,
    answer: `sent, the MOBILE entry has ${where} (no WhatsApp destination); check an SMS arrived`,
  };
}

function channelFailure(plan: SendPlan, error: ServiceAnswer, refusedMobile: boolean): ChannelFinding {
  if (plan.mobile === undefined) return { outcome: 'skipped', answer: 'not tried: no --mobile given' };
  const base = { channel: plan.channel, error };
  if (error.errorCode === SERVICE_ERROR_CODES.smsNotEnabledForCountry) {
    return {
      ...base,
      outcome: 'unexpected',
      answer: `refused: SMS is not enabled for this country (${briefly(error)})`,
    };
  }
  if (error.errorCode === SERVICE_ERROR_CODES.invalidPhoneChannel) {
    return { ...base, outcome: 'unexpected', answer: `refused: channel ${plan.channel} unknown (${briefly(error)})` };
  }
  const tail = refusedMobile && plan.email !== undefined ? '; the e-mail was sent alone' : '';
  return { ...base, outcome: 'failed', answer: `the send failed: ${briefly(error)}${tail}` };
}
