/**
 * Is `+` accepted in `mobile_number` (unknown 5)? The client strips it before sending, so this
 * one call is made by hand. It sends a second real message, hence only with `--probe-plus`.
 * Its URL holds the client secret (authorize takes credentials in the query): every error text
 * is redacted before it goes anywhere.
 */

import { parseServiceError } from '../client/errorBody.js';
import { redact, secretForms } from '../client/redact.js';
import { ENDPOINTS } from '../wire/endpoints.js';
import type { MagicLinkChannel } from '../wire/types.js';
import { note } from './answers.js';
import type { Observations, PlusSignFinding, ServiceAnswer } from './types.js';

export interface PlusProbe {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Digits with the country code; the probe puts `+` in front. */
  mobileDigits: string;
  channel: MagicLinkChannel;
  redirectUri: string;
  expiry: number;
  timeoutMs: number;
}

/** Largest answer read: an authorize answer is a few hundred bytes. */
const MAX_BODY = 64 * 1024;

/** A raw authorize with `mobile_number=+<digits>` (sent as `%2B`, the literal plus sign). */
export async function probePlus(probe: PlusProbe, observed: Observations): Promise<PlusSignFinding> {
  const secrets = secretForms(probe.clientSecret);
  const query = new URLSearchParams({
    client_id: probe.clientId,
    client_secret: probe.clientSecret,
    redirect_uri: probe.redirectUri,
    mobile_number: `+${probe.mobileDigits}`,
    channel: probe.channel,
    expiry: String(probe.expiry),
  });
  const url = `${probe.authUrl.replace(/\/+$/, '')}${ENDPOINTS.sendMagicLink.path}?${query}`;
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json', 'user-agent': 'passport-otpless otpless-check' },
      redirect: 'manual',
      signal: AbortSignal.timeout(probe.timeoutMs),
    });
    status = response.status;
    text = (await response.text()).slice(0, MAX_BODY);
  } catch (err) {
    // undici's messages and causes may name the URL: only redacted text leaves here.
    const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why = typeof cause?.code === 'string' ? cause.code : String((err as Error)?.message ?? err);
    return { outcome: 'failed', answer: `the call failed: ${redact(why, secrets)}` };
  }
  const fields = parseServiceError(text, secrets);
  const sentLink = status >= 200 && status <= 299 && fields.errorCode === undefined && hasRequestIds(text);
  if (sentLink)
    return { outcome: 'unexpected', accepted: true, status, answer: `accepted (HTTP ${status}, a link was sent)` };
  const answer: ServiceAnswer = {
    kind: 'api',
    status,
    ...(fields.errorCode !== undefined ? { errorCode: fields.errorCode } : {}),
    ...(fields.serviceMessage !== undefined ? { serviceMessage: fields.serviceMessage } : {}),
    text: `authorize with + answered HTTP ${status}`,
  };
  note('sendMagicLink (+ in number)', answer, observed);
  const code = fields.errorCode === undefined ? ' without errorCode' : ` errorCode ${fields.errorCode}`;
  return {
    outcome: 'expected',
    accepted: false,
    status,
    ...(fields.errorCode !== undefined ? { errorCode: fields.errorCode } : {}),
    answer: `refused (HTTP ${status}${code}); the client strips + anyway`,
  };
}

function hasRequestIds(text: string): boolean {
  try {
    const body = JSON.parse(text) as { requestIds?: unknown };
    return Array.isArray(body.requestIds) && body.requestIds.length > 0;
  } catch {
    return false;
  }
}
