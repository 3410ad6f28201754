/**
 * Are the credentials accepted? verify-code with a nonsense code costs nothing (no message is
 * sent) and the service must check the credentials before it can judge the code: a refusal of
 * the code means the credentials passed, a refusal of the app means they did not.
 */

import { randomBytes } from 'node:crypto';
import type { OtplessClient } from '../client/index.js';
import { attempt, briefly, refusesCredentials } from './answers.js';
import type { CredentialsFinding, Observations, ServiceAnswer } from './types.js';

/** A code no link ever carried: recognisable in the service's logs, random so it never collides. */
function nonsenseCode(): string {
  return `otpless-check-${randomBytes(12).toString('hex')}`;
}

/**
 * An answer about the code, not about the route, our app or the service's health: a 400, an
 * error in a 2xx, or a 401/403 whose errorCode is not a credential one (7301: expired). A
 * 403 without any code may be a proxy in the way: it says nothing either way.
 */
function judgesTheCode(answer: ServiceAnswer): boolean {
  const { status } = answer;
  if (status === undefined) return false;
  if (status === 400 || (status >= 200 && status <= 299)) return true;
  return (status === 401 || status === 403) && answer.errorCode !== undefined;
}

/** verify-code with a nonsense code, read as: credentials accepted, refused, or cannot tell. */
export async function checkCredentials(client: OtplessClient, observed: Observations): Promise<CredentialsFinding> {
  const result = await attempt('verifyCode (nonsense code)', observed, () => client.verifyCode(nonsenseCode()));
  if (result.ok) {
    // Never expected: the service verified a code it never issued. The credentials passed, at least.
    return {
      outcome: 'expected',
      accepted: true,
      answer: 'accepted (but the service verified a nonsense code: report this to OTPless)',
    };
  }
  const probe = result.answer;
  if (refusesCredentials(probe)) {
    return { outcome: 'unexpected', accepted: false, probe, answer: `refused (${briefly(probe)})` };
  }
  if (probe.kind === 'api' && judgesTheCode(probe)) {
    return { outcome: 'expected', accepted: true, probe, answer: `accepted (the nonsense code got ${briefly(probe)})` };
  }
  // 404, 429, 5xx, a bare 403, a timeout, no connection: nothing said about the credentials.
  return { outcome: 'failed', probe, answer: `cannot tell: verify-code answered ${briefly(probe)}` };
}
