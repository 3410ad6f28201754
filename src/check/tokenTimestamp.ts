/**
 * What does validate-token's `timestamp` stamp (unknown 6)? The same token is validated twice,
 * apart in time: a stamp that stays put dates the sign-in; one that moves dates each answer, and
 * then a token reads as fresh on every validation. The strategy's age check rests on `verifiedAt`
 * either way (src/strategy/tokens.ts); this says whether `timestamp` could ever be trusted too.
 */

import type { OtplessClient } from '../client/index.js';
import type { TokenValidationResult } from '../wire/types.js';
import { readIsoTime } from '../wire/time.js';
import { attempt, briefly } from './answers.js';
import type { Observations, TokenTimestampFinding, VerifiedAtFinding } from './types.js';
import { compareVerifiedAt } from './verifiedAt.js';

/** Long enough for a stamp with whole seconds to move. */
export const TIMESTAMP_PROBE_GAP_MS = 2_500;

/** What two validations of one token settle: `timestamp` and `verifiedAt`, and the answers read. */
export interface TwoValidations {
  tokenTimestamp: TokenTimestampFinding;
  verifiedAt: VerifiedAtFinding;
  /** The answers that came back (their risk signals are reported too). */
  answers: TokenValidationResult[];
}

/**
 * Validates `token` twice, `pause` apart, and compares the two `timestamp`s and `verifiedAt`s.
 *
 * @example await checkTokenTimestamp(client, token, observed, (ms) => new Promise((r) => setTimeout(r, ms)))
 */
export async function checkTokenTimestamp(
  client: OtplessClient,
  token: string,
  observed: Observations,
  pause: (ms: number) => Promise<void>,
): Promise<TwoValidations> {
  const failed = (answer: string, answers: TokenValidationResult[]): TwoValidations => ({
    tokenTimestamp: { outcome: 'failed', answer },
    verifiedAt: { outcome: 'failed', answer },
    answers,
  });
  const first = await attempt('validateToken', observed, () => client.validateToken(token));
  if (!first.ok) return failed(`validate-token refused the token (${briefly(first.answer)})`, []);
  await pause(TIMESTAMP_PROBE_GAP_MS);
  const second = await attempt('validateToken', observed, () => client.validateToken(token));
  if (!second.ok) return failed(`the second validate-token failed (${briefly(second.answer)})`, [first.value]);
  return {
    tokenTimestamp: compareStamps(first.value, second.value),
    verifiedAt: compareVerifiedAt(first.value, second.value),
    answers: [first.value, second.value],
  };
}

/** The finding from two answers for one token. */
export function compareStamps(a: TokenValidationResult, b: TokenValidationResult): TokenTimestampFinding {
  const verifiedAt = a.identities.some((i) => readIsoTime(i.verifiedAt) !== undefined);
  const [t1, t2] = [readIsoTime(a.timestamp), readIsoTime(b.timestamp)];
  const base = { verifiedAt };
  const ageOn = verifiedAt
    ? 'the age check rests on verifiedAt'
    : 'no verifiedAt: frontend-token logins are refused (TOKEN_REJECTED)';
  if (t1 === undefined || t2 === undefined) {
    return { ...base, outcome: 'expected', meaning: 'absent', answer: `no readable timestamp; ${ageOn}` };
  }
  if (t1 === t2) {
    return {
      ...base,
      outcome: 'expected',
      meaning: 'signIn',
      answer: `timestamp stayed put: it dates the sign-in; ${ageOn}`,
    };
  }
  return {
    ...base,
    outcome: 'unexpected',
    meaning: 'answer',
    movedMs: t2 - t1,
    answer: `timestamp moved ${t2 - t1} ms between two validations: it dates each answer, never trust it as a sign-in time; ${ageOn}`,
  };
}
