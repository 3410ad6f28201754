import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RISK_POLICY,
  RISK_ACTIONS,
  RISK_SIGNALS,
  actionSeverity,
  isRiskAction,
  strictestAction,
  validateRiskPolicy,
  type RiskPolicy,
} from '../../src/risk/index.js';

describe('DEFAULT_RISK_POLICY', () => {
  it('has an action for every signal, and fails closed', () => {
    for (const signal of RISK_SIGNALS) expect(isRiskAction(DEFAULT_RISK_POLICY[signal])).toBe(true);
    expect(DEFAULT_RISK_POLICY.missing).toBe('block');
    expect(DEFAULT_RISK_POLICY.malformed).toBe('block');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(DEFAULT_RISK_POLICY)).toBe(true);
    expect(Object.isFrozen(DEFAULT_RISK_POLICY.requiredSignals)).toBe(true);
  });

  it('is the policy POLICY.md documents, option by option', () => {
    const doc = readFileSync(new URL('../../src/risk/POLICY.md', import.meta.url), 'utf8');
    const documented = new Map<string, string>();
    for (const line of doc.split('\n')) {
      const cells = /^\| `(\w+)` \|[^|]*\| `([^`]+)`/.exec(line);
      if (cells?.[1] && cells[2]) documented.set(cells[1], cells[2]);
    }
    const actual = Object.entries(DEFAULT_RISK_POLICY).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.join(', ') : String(value),
    ]);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(actual));
  });
});

describe('validateRiskPolicy', () => {
  it('gives the defaults for no policy', () => {
    expect(validateRiskPolicy()).toBe(DEFAULT_RISK_POLICY);
    expect(validateRiskPolicy(null)).toBe(DEFAULT_RISK_POLICY);
    expect(validateRiskPolicy({})).toEqual(DEFAULT_RISK_POLICY);
  });

  it('merges a policy over the defaults, keeping defaults for undefined options', () => {
    const policy = validateRiskPolicy({ vpn: 'block', incognito: undefined, maxSuspectScore: 20, requiredSignals: [] });
    expect(policy).toEqual({ ...DEFAULT_RISK_POLICY, vpn: 'block', maxSuspectScore: 20, requiredSignals: [] });
    expect(Object.isFrozen(policy)).toBe(true);
  });

  it('copies requiredSignals, so changing the caller array later changes nothing', () => {
    const required: RiskPolicy['requiredSignals'] & string[] = ['bot'];
    const policy = validateRiskPolicy({ requiredSignals: required });
    required.push('vpn');
    expect(policy.requiredSignals).toEqual(['bot']);
  });

  it('accepts the bounds of every threshold', () => {
    expect(() =>
      validateRiskPolicy({ maxSuspectScore: 0, minConfidence: 0, maxAnomalyScore: 0, factoryResetWithinMs: 0 }),
    ).not.toThrow();
    expect(() =>
      validateRiskPolicy({ minConfidence: 1, maxAnomalyScore: 1, factoryResetWithinMs: 365 * 86_400_000 }),
    ).not.toThrow();
  });

  it.each<[string, unknown, RegExp]>([
    ['a string', 'strict', /must be an object/],
    ['an array', ['vpn'], /must be an object/],
    ['a number', 42, /must be an object/],
    ['an unknown option', { vpm: 'block' }, /validateRiskPolicy: options.vpm is not an option/],
    [
      'an unknown option named like a wire member',
      { originCountry: 'block' },
      /options.originCountry is not an option/,
    ],
    ['a bad action', { vpn: 'deny' }, /validateRiskPolicy: options.vpn must be 'allow', 'challenge' or 'block'$/],
    ['an action in the wrong case', { bot: 'Block' }, /options.bot must be/],
    ['an action of the wrong type', { missing: true }, /options.missing must be 'allow'/],
    ['a null action', { malformed: null }, /options.malformed must be 'allow'/],
    ['NaN', { maxSuspectScore: Number.NaN }, /options.maxSuspectScore must be a finite number >= 0$/],
    [
      'Infinity',
      { factoryResetWithinMs: Number.POSITIVE_INFINITY },
      /options.factoryResetWithinMs must be a finite number/,
    ],
    ['a negative score', { maxSuspectScore: -1 }, /options.maxSuspectScore must be/],
    ['a confidence above 1', { minConfidence: 1.5 }, /options.minConfidence must be a finite number from 0 to 1$/],
    ['a negative anomaly score', { maxAnomalyScore: -0.1 }, /options.maxAnomalyScore must be/],
    [
      'a threshold as a string',
      { factoryResetWithinMs: '7d' },
      /options.factoryResetWithinMs must be a finite number >= 0$/,
    ],
    ['requiredSignals as a string', { requiredSignals: 'bot' }, /options.requiredSignals must be an array/],
    [
      'an unknown required signal',
      { requiredSignals: ['bot', 'bots'] },
      /options.requiredSignals must be an array of signal names from: /,
    ],
    ['missing as a required signal', { requiredSignals: ['missing'] }, /options.requiredSignals must be an array/],
  ])('throws a TypeError naming the option for %s', (_name, policy, message) => {
    expect(() => validateRiskPolicy(policy as RiskPolicy)).toThrow(TypeError);
    expect(() => validateRiskPolicy(policy as RiskPolicy)).toThrow(message);
  });

  it('keeps error messages short for long bad values', () => {
    const error = (() => {
      try {
        validateRiskPolicy({ vpn: 'x'.repeat(10_000) as never });
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error?.message.length).toBeLessThan(200);
  });
});

describe('severity helpers', () => {
  it('orders actions allow < challenge < block', () => {
    expect(RISK_ACTIONS.map(actionSeverity)).toEqual([0, 1, 2]);
  });

  it('picks the strictest action, allow for none', () => {
    expect(strictestAction()).toBe('allow');
    expect(strictestAction('allow', 'challenge')).toBe('challenge');
    expect(strictestAction('block', 'allow', 'challenge')).toBe('block');
  });

  it('recognises actions', () => {
    expect(RISK_ACTIONS.every(isRiskAction)).toBe(true);
    for (const value of ['deny', 'Allow', '', null, undefined, 1, {}]) expect(isRiskAction(value)).toBe(false);
  });
});
