/**
 * What do validate-token's identities' `verifiedAt` stamp (unknown 8)? The same two answers as
 * the timestamp check (one token validated twice, apart in time) are compared. A stamp that
 * stays put dates the sign-in, as the strategy's age check assumes; one that moves dates each
 * answer, and then a used token would read as fresh again once its used mark expires. The
 * package stays safe either way only because a frontend token's used mark lives from first
 * use, not from `verifiedAt` (src/strategy/tokens.ts): this finding says whether that matters.
 */

import type { TokenValidationResult } from '../wire/types.js';
import { readIsoTime } from '../wire/time.js';
import type { VerifiedAtFinding } from './types.js';

/** The earliest readable `verifiedAt` of an answer's identities (what the age check reads). */
function earliest(answer: TokenValidationResult): number | undefined {
  const times = answer.identities.map((i) => readIsoTime(i.verifiedAt)).filter((t) => t !== undefined);
  return times.length === 0 ? undefined : Math.min(...times);
}

/**
 * The finding from two validations of one token, apart in time.
 *
 * @example compareVerifiedAt(firstAnswer, secondAnswer).meaning // 'signIn'
 */
export function compareVerifiedAt(a: TokenValidationResult, b: TokenValidationResult): VerifiedAtFinding {
  const [t1, t2] = [earliest(a), earliest(b)];
  if (t1 === undefined || t2 === undefined) {
    return {
      outcome: 'unexpected',
      meaning: 'absent',
      answer: 'no readable verifiedAt: frontend-token logins are refused (TOKEN_REJECTED, OTPLESS_TOKEN_TIME_UNKNOWN)',
    };
  }
  if (t1 === t2) {
    return { outcome: 'expected', meaning: 'signIn', answer: 'verifiedAt stayed put: it dates the sign-in' };
  }
  return {
    outcome: 'unexpected',
    meaning: 'answer',
    movedMs: t2 - t1,
    answer: `verifiedAt moved ${t2 - t1} ms between two validations: it dates each answer, not the sign-in`,
  };
}
