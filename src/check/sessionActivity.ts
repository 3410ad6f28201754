/**
 * What does get-session-details' `lastActiveAt` count (unknown 9)? One session token is read
 * twice, apart in time. If the read itself moves it, "fresh by lastActiveAt" would bound
 * nothing (the login's own call refreshes it); the strategy's session-token login rests on
 * `startedAt` instead (src/strategy/sessionToken.ts), so this finding says whether
 * `lastActiveAt` could ever mean the person's activity, and that `startedAt` stays put.
 */

import type { OtplessClient } from '../client/index.js';
import type { SessionDetails } from '../wire/types.js';
import { readEpochMs } from '../wire/time.js';
import { attempt, briefly } from './answers.js';
import { TIMESTAMP_PROBE_GAP_MS } from './tokenTimestamp.js';
import type { LastActiveFinding, Observations } from './types.js';

/**
 * Reads the session twice, `pause` apart, and compares `lastActiveAt` and `startedAt`.
 *
 * @example await checkLastActive(client, sessionToken, observed, (ms) => new Promise((r) => setTimeout(r, ms)))
 */
export async function checkLastActive(
  client: OtplessClient,
  sessionToken: string,
  observed: Observations,
  pause: (ms: number) => Promise<void>,
): Promise<LastActiveFinding> {
  const read = () => attempt('getSessionDetails', observed, () => client.getSessionDetails(sessionToken));
  const first = await read();
  if (!first.ok) {
    return { outcome: 'failed', answer: `get-session-details refused the session token (${briefly(first.answer)})` };
  }
  await pause(TIMESTAMP_PROBE_GAP_MS);
  const second = await read();
  if (!second.ok) return { outcome: 'failed', answer: `the second read failed (${briefly(second.answer)})` };
  return compareLastActive(first.value, second.value);
}

/** The finding from two reads of one session, apart in time, with no other use in between. */
export function compareLastActive(a: SessionDetails, b: SessionDetails): LastActiveFinding {
  const [s1, s2] = [readEpochMs(a.startedAt), readEpochMs(b.startedAt)];
  const startedAtSteady = s1 !== undefined && s1 === s2;
  const started = startedAtSteady
    ? 'startedAt stayed put (the session-token age rests on it)'
    : s1 === undefined || s2 === undefined
      ? 'NO readable startedAt: session-token logins are refused (TOKEN_REJECTED)'
      : `startedAt MOVED ${(s2 ?? 0) - (s1 ?? 0)} ms: session-token ages read fresh on every login`;
  const [t1, t2] = [readEpochMs(a.lastActiveAt), readEpochMs(b.lastActiveAt)];
  const base = { startedAtSteady };
  // startedAt is what the package rests on: when it moves or is missing, that is the news.
  const outcome = startedAtSteady ? 'expected' : 'unexpected';
  if (t1 === undefined || t2 === undefined) {
    return { ...base, outcome, meaning: 'absent', answer: `no readable lastActiveAt; ${started}` };
  }
  if (t1 === t2) {
    return {
      ...base,
      outcome,
      meaning: 'activity',
      answer: `lastActiveAt stayed put across two reads: reading does not refresh it; ${started}`,
    };
  }
  return {
    ...base,
    outcome,
    meaning: 'read',
    movedMs: t2 - t1,
    answer: `lastActiveAt moved ${t2 - t1} ms between two reads: the read itself refreshes it; ${started}`,
  };
}
