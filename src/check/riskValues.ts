/**
 * How does the service spell `bot.result`, and on what scale are `confidence.score` and
 * `tampering.anomalyScore` (unknown 10)? The check prints what it saw in every answer that
 * carried risk signals (validate-token's `secureInfo`, secure-info's `secure_info`), raw, so a
 * person can compare it with what `requireLowRisk()` reads (src/risk/signals.ts): only
 * `notDetected` is a clean bot value, and a score outside 0..1 reads as malformed. Both fail
 * closed, so another spelling or scale refuses logins rather than letting risky ones through.
 */

import type { SecureInfo } from '../wire/types.js';
import type { RiskValuesFinding, ScoreRange } from './types.js';

/** The bot values the package knows; only `notDetected` is clean. */
const KNOWN_BOT = new Set(['notDetected', 'good', 'bad']);
/** A raw value as the report shows it: JSON, cut short (the service sends no secret here). */
const shown = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 40);

function own(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function range(values: unknown[]): ScoreRange | undefined {
  if (values.length === 0) return undefined;
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const notNumbers = [...new Set(values.filter((v) => !numbers.includes(v as number)).map(shown))];
  return {
    ...(numbers.length > 0 ? { min: Math.min(...numbers), max: Math.max(...numbers) } : {}),
    seen: numbers.length,
    ...(notNumbers.length > 0 ? { notNumbers } : {}),
  };
}

const inUnit = (r: ScoreRange | undefined) =>
  r === undefined || (r.seen > 0 && !r.notNumbers && r.min! >= 0 && r.max! <= 1);
const describe = (name: string, r: ScoreRange | undefined) =>
  r === undefined
    ? `${name} absent`
    : `${name} ${r.seen > 0 ? `${r.min}..${r.max} (${r.seen} seen)` : 'no number'}${r.notNumbers ? ` and ${r.notNumbers.join(', ')}` : ''}`;

/**
 * The finding from the risk signals of every answer seen (`undefined` entries are answers
 * without signals).
 *
 * @example riskValues([validated.secureInfo, secure.secure_info]).botResults // ['"notDetected"']
 */
export function riskValues(signals: ReadonlyArray<SecureInfo | undefined>): RiskValuesFinding {
  const present = signals.filter((s): s is SecureInfo => s !== undefined && Object.keys(s).length > 0);
  if (present.length === 0) {
    return {
      outcome: 'skipped',
      answers: 0,
      answer: "no answer carried risk signals: requireLowRisk() judges them 'missing' (refused by default)",
    };
  }
  const bots = present.map((s) => own(own(s, 'bot'), 'result')).filter((v) => v !== undefined);
  const botResults = [...new Set(bots.map(shown))];
  const confidenceScore = range(present.map((s) => own(own(s, 'confidence'), 'score')).filter((v) => v !== undefined));
  const anomalyScore = range(
    present.map((s) => own(own(s, 'tampering'), 'anomalyScore')).filter((v) => v !== undefined),
  );
  const knownBots = bots.every((v) => typeof v === 'string' && KNOWN_BOT.has(v));
  const outcome = knownBots && inUnit(confidenceScore) && inUnit(anomalyScore) ? 'expected' : 'unexpected';
  const answer =
    `${present.length} answer(s): bot.result ${botResults.length > 0 ? botResults.join(', ') : 'absent'}; ` +
    `${describe('confidence.score', confidenceScore)}; ${describe('tampering.anomalyScore', anomalyScore)}`;
  return {
    outcome,
    answers: present.length,
    botResults,
    ...(confidenceScore ? { confidenceScore } : {}),
    ...(anomalyScore ? { anomalyScore } : {}),
    answer,
  };
}
