// Properties of assessRisk and compactSignals, 10,000 cases each.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  RISK_ACTIONS,
  RISK_SIGNALS,
  SIGNAL_NAMES,
  actionSeverity,
  assessRisk,
  compactSignals,
  strictestAction,
  type RiskPolicy,
  type RiskVerdict,
  type SignalName,
} from '../../src/risk/index.js';
import {
  NOW,
  anyPolicy,
  fullSecureInfo,
  malformedSignal,
  secureInfoLike,
  throwingGetter,
  validSecureInfo,
  wrapped,
} from './fixtures.js';
import { fuzzParams, fuzzRuns } from '../helpers/fuzzRuns.js';

/** 10,000 cases under test:slow, 1,000 in npm test (see fuzzRuns). */
const RUNS = fuzzRuns(10_000);
const runs = fuzzParams(RUNS);
const at = { now: NOW };

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** Any input at all: arbitrary values, and secure-info-like objects bare or wrapped. */
const anyInput = fc.oneof(anything, wrapped(secureInfoLike), wrapped(validSecureInfo));

/**
 * A verdict is well formed: known actions and signals, no allow reasons, the strictest wins.
 * Plain checks, not expect(): at 10,000 cases expect() would triple the run time.
 */
function isWellFormed(verdict: RiskVerdict): boolean {
  return (
    RISK_ACTIONS.includes(verdict.action) &&
    verdict.reasons.every(
      (reason) =>
        RISK_SIGNALS.includes(reason.signal) &&
        reason.action !== 'allow' &&
        RISK_ACTIONS.includes(reason.action) &&
        (reason.detail === undefined || typeof reason.detail === 'string'),
    ) &&
    verdict.action === strictestAction(...verdict.reasons.map((reason) => reason.action)) &&
    (!('score' in verdict) || Number.isFinite(verdict.score))
  );
}

// ---------------------------------------------------------------- worsening one signal

type Info = Record<string, unknown>;
const record = (value: unknown): Info => value as Info;

/** Epoch ms of the latest reset in a well-formed factoryReset (fixtures use whole ms). */
function latestReset(value: Info): number {
  const time = typeof value.time === 'string' ? Date.parse(value.time) : 0;
  const timestamp = typeof value.timestamp === 'number' ? value.timestamp * 1000 : 0;
  return Math.max(time, timestamp);
}

/**
 * A worse value of one well-formed signal, `r` in [0, 1] choosing how much worse; the
 * orders are the ones POLICY.md documents.
 */
function worsen(name: SignalName, value: unknown, r: number): unknown {
  const signal = record(value);
  switch (name) {
    case 'incognito':
      return true;
    case 'confidence':
      return { ...signal, score: (signal.score as number) * r };
    case 'bot':
      return signal.result === 'notDetected'
        ? { result: r < 0.33 ? 'good' : r < 0.66 ? 'bad' : 'headless' }
        : { result: 'bad' };
    case 'suspectScore':
      return { result: (signal.result as number) + r * 20 };
    case 'tampering': {
      if (r < 0.5) return { ...signal, result: true };
      const score = (signal.anomalyScore as number | undefined) ?? 0;
      return { ...signal, anomalyScore: Math.min(1, score + (1 - score) * (r - 0.5) * 2) };
    }
    case 'factoryReset': {
      const latest = latestReset(signal);
      return latest >= NOW ? signal : { time: new Date(latest + Math.floor((NOW - latest) * r)).toISOString() };
    }
    case 'vpn': {
      const methods = record(signal.methods ?? {});
      const step = Math.floor(r * 5);
      if (step === 4) return { ...signal, result: true };
      const method = (['timezoneMismatch', 'publicVPN', 'auxiliaryMobile', 'osMismatch'] as const)[step] ?? 'publicVPN';
      const explainsBareResult =
        method === 'osMismatch' &&
        signal.result === true &&
        !['timezoneMismatch', 'publicVPN', 'auxiliaryMobile'].some((m) => methods[m] === true);
      // osMismatch added to a bare `result` explains it as a privacy relay: not a worsening.
      return explainsBareResult ? signal : { ...signal, methods: { ...methods, [method]: true } };
    }
    default:
      return { ...signal, result: true };
  }
}

const severityOf = (input: unknown, policy?: RiskPolicy): number =>
  actionSeverity(assessRisk(input, policy, at).action);

// ---------------------------------------------------------------- fail closed inputs

const missingInput = fc.constantFrom<unknown>(
  undefined,
  null,
  {},
  { secureInfo: null },
  { status: 'SUCCESS', secure_info: undefined },
);
const malformedWhole = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.jsonValue(), { maxLength: 3 }));

/** A well-formed secure info made unsafe: one signal malformed or throwing, or one required signal absent. */
const damagedSecureInfo = fc
  .tuple(
    fullSecureInfo,
    fc.constantFrom(...SIGNAL_NAMES),
    fc.nat(),
    fc.constantFrom('malformed', 'throwing', 'absent', 'null'),
  )
  .chain(([info, name, index, damage]) => {
    if (damage === 'malformed') return malformedSignal[name].map((bad) => ({ ...info, [name]: bad }));
    if (damage === 'throwing') return fc.constant(null).map(() => throwingGetter(name, info));
    const required = (['bot', 'vpn', 'tampering'] as const)[index % 3] ?? 'bot';
    return fc.constant({ ...info, [required]: damage === 'null' ? null : undefined });
  });

describe(`assessRisk properties (${RUNS} cases each)`, () => {
  it('is total: any value at all gives a well-formed verdict under any policy, never a throw', () => {
    fc.assert(
      fc.property(anyInput, anyPolicy, (input, policy) => isWellFormed(assessRisk(input, policy, at))),
      runs,
    );
  });

  it('is total on secure-info-like objects, and blocks whenever a signal is missing or malformed', () => {
    fc.assert(
      fc.property(wrapped(secureInfoLike), (input) => {
        const verdict = assessRisk(input, undefined, at);
        const unsafe = verdict.reasons.some((reason) => reason.signal === 'malformed' || reason.signal === 'missing');
        return isWellFormed(verdict) && (!unsafe || verdict.action === 'block');
      }),
      runs,
    );
  });

  it('fails closed: missing or malformed input never gives allow under the default policy', () => {
    fc.assert(
      fc.property(
        wrapped(fc.oneof(missingInput, malformedWhole, damagedSecureInfo)),
        (input) => assessRisk(input, undefined, at).action === 'block',
      ),
      runs,
    );
  });

  it('is monotone: making signals worse never makes the verdict milder, under any policy', () => {
    const present = (info: Info) => SIGNAL_NAMES.filter((name) => info[name] !== undefined);
    fc.assert(
      fc.property(
        validSecureInfo,
        anyPolicy,
        fc.array(fc.tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 3 }),
        (info, policy, steps) => {
          let current: Info = info;
          for (const [pick, r] of steps) {
            const names = present(current);
            const name = names[pick % Math.max(names.length, 1)];
            if (name === undefined) return true;
            const worse = { ...current, [name]: worsen(name, current[name], r) };
            if (severityOf(worse, policy) < severityOf(current, policy)) return false;
            current = worse;
          }
          return true;
        },
      ),
      runs,
    );
  });

  it('recomputes the same verdict from the compact form, under any policy, after a JSON round trip', () => {
    fc.assert(
      fc.property(
        anyInput,
        anyPolicy,
        fc.integer({ min: NOW - 30 * 86_400_000, max: NOW + 30 * 86_400_000 }),
        (input, policy, now) => {
          const compact = compactSignals(input);
          const json = JSON.stringify(compact);
          return (
            Buffer.byteLength(json) < 400 &&
            isDeepStrictEqual(assessRisk(JSON.parse(json), policy, { now }), assessRisk(input, policy, { now })) &&
            isDeepStrictEqual(compactSignals(compact), compact)
          );
        },
      ),
      runs,
    );
  });
});
