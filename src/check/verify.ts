/**
 * The link's code through verify-code: is it accepted at all (unknown 1), in which shape does
 * the answer come, is its requestId one the send returned (unknown 2), and what does a second
 * verify of the same code answer (unknown 5)?
 */

import type { OtplessClient } from '../client/index.js';
import type { CodeVerificationResult, SendMagicLinkResponse } from '../wire/types.js';
import { attempt, briefly } from './answers.js';
import type {
  CodeAcceptedFinding,
  Observations,
  ReplayFinding,
  RequestIdsFinding,
  VerifyShapeFinding,
} from './types.js';

/** What the first verify of the code gave. */
export interface VerifyOutcome {
  codeAccepted: CodeAcceptedFinding;
  verification?: CodeVerificationResult;
}

/** verify-code with the link's code. */
export async function verifyLinkCode(
  client: OtplessClient,
  code: string,
  observed: Observations,
): Promise<VerifyOutcome> {
  const result = await attempt('verifyCode', observed, () => client.verifyCode(code));
  if (result.ok)
    return { codeAccepted: { outcome: 'expected', accepted: true, answer: 'accepted' }, verification: result.value };
  const error = result.answer;
  // An API answer, or a state other than SUCCESS, is the service's verdict on the code;
  // anything else says nothing about it.
  const verdict = error.kind === 'api' || error.kind === 'not-success';
  return {
    codeAccepted: {
      outcome: verdict ? 'unexpected' : 'failed',
      ...(verdict ? { accepted: false } : {}),
      error,
      answer: `${verdict ? 'refused' : 'failed'}: ${briefly(error)}`,
    },
  };
}

/** Which of the fields that tell the two documented shapes apart the answer has. */
function shapeFields(verification: CodeVerificationResult): string[] {
  const details = verification.userDetails;
  const fields = new Set<string>();
  if (typeof details.completedAt === 'number') fields.add('completedAt');
  if (typeof details.timestamp === 'string') fields.add('timestamp');
  for (const identity of details.identities) {
    if (typeof identity.verifiedTimestamp === 'number') fields.add('verifiedTimestamp');
    if (typeof identity.verifiedAt === 'string') fields.add('verifiedAt');
  }
  return [...fields];
}

const CURRENT = ['completedAt', 'verifiedTimestamp'];
const LEGACY = ['timestamp', 'verifiedAt'];

/** current (`completedAt`, `verifiedTimestamp`) or legacy (`timestamp`, `verifiedAt`). */
export function verifyShape(verification: CodeVerificationResult): VerifyShapeFinding {
  const fields = shapeFields(verification);
  const current = fields.some((field) => CURRENT.includes(field));
  const legacy = fields.some((field) => LEGACY.includes(field));
  const tokenLength = verification.userDetails.token.length;
  const base = { fields, tokenLength };
  if (current && !legacy)
    return { ...base, outcome: 'expected', shape: 'current', answer: 'current (completedAt, verifiedTimestamp)' };
  if (legacy && !current) {
    return {
      ...base,
      outcome: 'unexpected',
      shape: 'legacy',
      answer: 'legacy (timestamp, verifiedAt): the client reads it too',
    };
  }
  if (legacy && current)
    return { ...base, outcome: 'unexpected', shape: 'mixed', answer: `mixed: ${fields.join(', ')}` };
  return { ...base, outcome: 'unexpected', shape: 'unknown', answer: 'neither shape: no completion time found' };
}

/** verify-code's requestId against the send's `requestIds[].value`. */
export function compareRequestIds(
  sent: SendMagicLinkResponse,
  verification: CodeVerificationResult,
): RequestIdsFinding {
  const values = sent.requestIds.map((entry) => entry.value);
  const equal = values.includes(verification.requestId);
  const perChannel = values.length < 2 ? 'single' : new Set(values).size === 1 ? 'shared' : 'separate';
  const base = { equal, perChannel, sendEntries: values.length } as const;
  const ids =
    perChannel === 'single'
      ? 'one channel sent, so shared or not cannot be told (give --email and --mobile)'
      : perChannel === 'shared'
        ? 'one id shared by every channel'
        : 'one id per channel';
  if (!equal)
    return { ...base, outcome: 'unexpected', answer: `differ: verify-code's requestId is none of the send's; ${ids}` };
  // One id per channel departs from the docs' example but not from what the strategy needs: it keeps every id of a send.
  return { ...base, outcome: 'expected', answer: `equal; ${ids}` };
}

/** The same code again: it must be refused, and the answer says with what. */
export async function checkReplay(client: OtplessClient, code: string, observed: Observations): Promise<ReplayFinding> {
  const result = await attempt('verifyCode (replay)', observed, () => client.verifyCode(code));
  if (result.ok) {
    return { outcome: 'unexpected', refused: false, answer: 'ACCEPTED AGAIN: a used code verified a second time' };
  }
  const again = result.answer;
  if (again.kind !== 'api') return { outcome: 'failed', response: again, answer: `cannot tell: ${briefly(again)}` };
  return { outcome: 'expected', refused: true, response: again, answer: `refused: ${briefly(again)}` };
}
