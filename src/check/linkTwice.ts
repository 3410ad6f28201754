/**
 * Does the service's own link hop survive a mail scanner's GET (unknown 11)? Mail scanners open
 * links before the person does. With `openTwice`, the first landing plays the scanner's GET
 * (its code is never verified) and the second is the person's: the finding says whether the
 * second opening still landed with a code, whether it is the first one again, and whether
 * verify-code took it. Either way the package's default is safe: with `crossDevice: 'handoff'`
 * a GET from any browser but the one that asked shows the approval page and spends nothing
 * (docs/security.md), so a scanner holding a code signs nobody in; only whether the person's
 * click still works is at stake.
 */

import type { LandingReading } from './landing.js';
import type { CodeAcceptedFinding, LinkTwiceFinding } from './types.js';

/**
 * The finding from the two landings and what verify-code did with the second one's code
 * (`undefined` when it had none).
 *
 * @example linkTwice(scannerReading, personReading, report.codeAccepted)
 */
export function linkTwice(
  first: LandingReading,
  second: LandingReading | undefined,
  verified: CodeAcceptedFinding | undefined,
): LinkTwiceFinding {
  if (second === undefined) {
    return {
      outcome: 'unexpected',
      secondLanded: false,
      answer: 'the second opening never landed: after a GET the link may be spent (mail scanners would break it)',
    };
  }
  if (second.code === undefined) {
    return {
      outcome: 'unexpected',
      secondLanded: true,
      secondCode: 'none',
      answer: "the second opening landed without a code: a scanner's GET spends the link before the person's click",
    };
  }
  const secondCode = second.code === first.code ? 'same' : 'other';
  const which = secondCode === 'same' ? 'the same code again' : 'another code';
  const base = { secondLanded: true, secondCode } as const;
  if (verified?.accepted === true) {
    return {
      ...base,
      outcome: 'expected',
      secondAccepted: true,
      answer: `the second opening landed with ${which}, and verify-code took it: the link survives a scanner's GET`,
    };
  }
  return {
    ...base,
    outcome: verified?.accepted === false ? 'unexpected' : 'failed',
    ...(verified?.accepted === false ? { secondAccepted: false } : {}),
    ...(verified?.error ? { error: verified.error } : {}),
    answer: `the second opening landed with ${which}, but verify-code did not take it (${verified?.answer ?? 'not tried'})`,
  };
}
