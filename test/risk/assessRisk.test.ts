import { afterEach, describe, expect, it, vi } from 'vitest';
import { assessRisk, type RiskPolicy, type RiskVerdict, SIGNAL_NAMES, type SignalName } from '../../src/risk/index.js';
import {
  cleanSecureInfo,
  DAY_MS,
  NOW,
  secureInfoResponse,
  secureInfoWith,
  throwingGetter,
  throwingObject,
  tokenResult,
} from './fixtures.js';

const at = { now: NOW };
const assess = (input: unknown, policy?: RiskPolicy): RiskVerdict => assessRisk(input, policy, at);
const ALLOW: RiskVerdict = { action: 'allow', reasons: [], score: 0 };
const seconds = (ms: number): number => ms / 1000;
const iso = (ms: number): string => new Date(ms).toISOString();
const withoutSecureInfo = ({ secureInfo: _drop, ...rest }: Record<string, unknown>) => rest;
const vpn = (result: boolean, methods: Record<string, boolean> = {}) => ({
  vpn: { result, originCountry: 'NL', methods },
});

describe('assessRisk: the forms of input', () => {
  it('allows a clean secure info and reports the suspect score', () => {
    expect(assess(cleanSecureInfo())).toEqual(ALLOW);
  });

  it('allows a clean validate-token secureInfo, which lacks the three secure-info-only signals', () => {
    const info = secureInfoWith({ virtualMachine: undefined, locationSpoofing: undefined, developerTools: undefined });
    expect(assess(info)).toEqual(ALLOW);
  });

  it.each([
    ['the bare secure info', (info: unknown) => info],
    ['the secure-info response (secure_info)', secureInfoResponse],
    ['the validate-token result (secureInfo)', tokenResult],
    ['a bare { secure_info }', (info: unknown) => ({ secure_info: info })],
  ])('judges %s the same way', (_name, wrap) => {
    const info = secureInfoWith({ vpn: { result: true, methods: { publicVPN: true } }, emulator: { result: true } });
    const expected: RiskVerdict = {
      action: 'block',
      reasons: [
        { signal: 'emulator', action: 'block' },
        { signal: 'vpn', action: 'challenge', detail: 'publicVPN' },
      ],
      score: 0,
    };
    expect(assess(wrap(info))).toEqual(expected);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
    ['an object with no known signal', { status: 'SUCCESS', somethingNew: { result: true } }],
    ['signals that are all null', { bot: null, vpn: null, tampering: null }],
    ['a token result without secureInfo (secure SDK not integrated)', withoutSecureInfo(tokenResult(undefined))],
    ['a token result whose secureInfo is undefined', { ...tokenResult(undefined), secureInfo: undefined }],
    ['a response whose secure_info is null', secureInfoResponse(null)],
  ])('blocks %s as missing (fail closed)', (_name, input) => {
    expect(assess(input)).toEqual({
      action: 'block',
      reasons: [{ signal: 'missing', action: 'block', detail: 'secureInfo' }],
    });
  });

  it.each([
    ['a number', 42],
    ['a string', 'SUCCESS'],
    ['a boolean', true],
    ['an array', [cleanSecureInfo()]],
    ['a response whose secure_info is a string', secureInfoResponse('{"bot":{}}')],
    ['an object whose every read throws', throwingObject()],
    ['a wrapper whose secureInfo getter throws', throwingGetter('secureInfo')],
  ])('blocks %s as malformed', (_name, input) => {
    expect(assess(input)).toEqual({
      action: 'block',
      reasons: [{ signal: 'malformed', action: 'block', detail: 'secureInfo' }],
    });
  });

  it('prefers secureInfo to secure_info when an object has both', () => {
    const input = { secureInfo: cleanSecureInfo(), secure_info: secureInfoWith({ bot: { result: 'bad' } }) };
    expect(assess(input).action).toBe('allow');
  });

  it('reads only own members, so a polluted prototype cannot make a missing signal look clean', () => {
    const info = Object.create({ bot: { result: 'notDetected' } }) as Record<string, unknown>;
    Object.assign(info, secureInfoWith({ bot: undefined }));
    expect(assess(info).reasons).toEqual([{ signal: 'missing', action: 'block', detail: 'bot' }]);
  });

  it('does not change its input', () => {
    const info = secureInfoWith({ vpn: { result: true, methods: { osMismatch: true } } });
    const copy = structuredClone(info);
    assess(tokenResult(info), { vpn: 'block' });
    expect(info).toEqual(copy);
  });
});

describe('assessRisk: each signal under the default policy', () => {
  it.each<[string, Record<string, unknown>, RiskVerdict['reasons']]>([
    ['bot notDetected', { bot: { result: 'notDetected' } }, []],
    ['bot bad (automation)', { bot: { result: 'bad' } }, [{ signal: 'bot', action: 'block', detail: 'bad' }]],
    ['bot good (known crawler)', { bot: { result: 'good' } }, [{ signal: 'bot', action: 'block', detail: 'good' }]],
    ['an unknown bot value', { bot: { result: 'headless' } }, [{ signal: 'bot', action: 'block', detail: 'unknown' }]],
    ['an empty bot value', { bot: { result: '' } }, [{ signal: 'bot', action: 'block', detail: 'unknown' }]],
    [
      'a bot value in another case',
      { bot: { result: 'NotDetected' } },
      [{ signal: 'bot', action: 'block', detail: 'unknown' }],
    ],
    [
      'tampering',
      { tampering: { result: true, anomalyScore: 0.9 } },
      [{ signal: 'tampering', action: 'block', detail: 'result' }],
    ],
    [
      'tampering without anomalyScore',
      { tampering: { result: true } },
      [{ signal: 'tampering', action: 'block', detail: 'result' }],
    ],
    ['frida', { frida: { result: true } }, [{ signal: 'frida', action: 'block' }]],
    ['clonedApp', { clonedApp: { result: true } }, [{ signal: 'clonedApp', action: 'block' }]],
    ['emulator', { emulator: { result: true } }, [{ signal: 'emulator', action: 'block' }]],
    ['rootApps', { rootApps: { result: true } }, [{ signal: 'rootApps', action: 'challenge' }]],
    ['jailbroken', { jailbroken: { result: true } }, [{ signal: 'jailbroken', action: 'challenge' }]],
    ['virtualMachine', { virtualMachine: { result: true } }, [{ signal: 'virtualMachine', action: 'challenge' }]],
    ['developerTools', { developerTools: { result: true } }, [{ signal: 'developerTools', action: 'challenge' }]],
    ['locationSpoofing', { locationSpoofing: { result: true } }, [{ signal: 'locationSpoofing', action: 'challenge' }]],
    ['privacySettings', { privacySettings: { result: true } }, []],
    ['incognito', { incognito: true }, []],
  ])('%s', (_name, changes, reasons) => {
    const verdict = assess(secureInfoWith(changes));
    expect(verdict.reasons).toEqual(reasons);
    expect(verdict.action).toBe(reasons[0]?.action ?? 'allow');
  });

  describe('vpn', () => {
    it.each<[string, Record<string, unknown>, RiskVerdict['reasons']]>([
      ['no vpn', vpn(false), []],
      ['no vpn, all methods false', vpn(false, { timezoneMismatch: false, publicVPN: false, osMismatch: false }), []],
      ['a vpn no method explains', vpn(true), [{ signal: 'vpn', action: 'challenge', detail: 'result' }]],
      [
        'a vpn without a methods object',
        { vpn: { result: true } },
        [{ signal: 'vpn', action: 'challenge', detail: 'result' }],
      ],
      ['a public VPN', vpn(true, { publicVPN: true }), [{ signal: 'vpn', action: 'challenge', detail: 'publicVPN' }]],
      [
        'a timezone mismatch',
        vpn(true, { timezoneMismatch: true }),
        [{ signal: 'vpn', action: 'challenge', detail: 'timezoneMismatch' }],
      ],
      [
        'an auxiliary mobile',
        vpn(true, { auxiliaryMobile: true }),
        [{ signal: 'vpn', action: 'challenge', detail: 'auxiliaryMobile' }],
      ],
      ['osMismatch alone: a privacy relay', vpn(true, { osMismatch: true, timezoneMismatch: false }), []],
      [
        'osMismatch with timezoneMismatch',
        vpn(true, { osMismatch: true, timezoneMismatch: true }),
        [{ signal: 'vpn', action: 'challenge', detail: 'timezoneMismatch+osMismatch' }],
      ],
      [
        'a method even when result is false',
        vpn(false, { publicVPN: true, auxiliaryMobile: true }),
        [{ signal: 'vpn', action: 'challenge', detail: 'publicVPN+auxiliaryMobile' }],
      ],
      [
        'an unknown method only',
        { vpn: { result: true, methods: { newMethod: true } } },
        [{ signal: 'vpn', action: 'challenge', detail: 'result' }],
      ],
    ])('%s', (_name, changes, reasons) => {
      expect(assess(secureInfoWith(changes)).reasons).toEqual(reasons);
    });
  });

  describe('factoryReset', () => {
    const reset = (factoryReset: unknown) => assess(secureInfoWith({ factoryReset }));
    const RECENT: RiskVerdict['reasons'] = [{ signal: 'factoryReset', action: 'challenge', detail: 'recent' }];

    it.each<[string, unknown, RiskVerdict['reasons']]>([
      ['the 1970 epoch: no reset', { time: '1970-01-01T00:00:00Z', timestamp: 0 }, []],
      ['the epoch as time only', { time: '1970-01-01T00:00:00.000Z' }, []],
      ['a reset yesterday (timestamp, epoch seconds)', { timestamp: seconds(NOW - DAY_MS) }, RECENT],
      ['a reset yesterday (time)', { time: iso(NOW - DAY_MS) }, RECENT],
      ['a reset yesterday in another zone', { time: '2026-11-21T15:30:00+05:30' }, RECENT],
      ['a reset a month ago', { time: iso(NOW - 30 * DAY_MS), timestamp: seconds(NOW - 30 * DAY_MS) }, []],
      [
        'old time but recent timestamp: the later counts',
        { time: iso(NOW - 30 * DAY_MS), timestamp: seconds(NOW - DAY_MS) },
        RECENT,
      ],
      ['recent time but epoch timestamp: the later counts', { time: iso(NOW - DAY_MS), timestamp: 0 }, RECENT],
      ['a reset in the future (clock skew)', { timestamp: seconds(NOW + 60_000) }, RECENT],
    ])('%s', (_name, value, reasons) => {
      expect(reset(value).reasons).toEqual(reasons);
    });
  });
});

describe('assessRisk: thresholds at their boundaries', () => {
  const score = (result: number, policy?: RiskPolicy) => assess(secureInfoWith({ suspectScore: { result } }), policy);
  const confidence = (value: number, policy?: RiskPolicy) =>
    assess(secureInfoWith({ confidence: { score: value } }), policy);
  const anomaly = (anomalyScore: number, policy?: RiskPolicy) =>
    assess(secureInfoWith({ tampering: { result: false, anomalyScore } }), policy);
  const resetAgo = (ms: number, policy?: RiskPolicy) =>
    assess(secureInfoWith({ factoryReset: { time: iso(NOW - ms) } }), policy);

  it('suspectScore: up to maxSuspectScore (10) allows, above it challenges', () => {
    expect(score(10)).toEqual({ action: 'allow', reasons: [], score: 10 });
    expect(score(10.5)).toEqual({
      action: 'challenge',
      reasons: [{ signal: 'suspectScore', action: 'challenge', detail: 'score>10' }],
      score: 10.5,
    });
    expect(score(11).action).toBe('challenge');
    expect(score(0, { maxSuspectScore: 0 }).action).toBe('allow');
    expect(score(1, { maxSuspectScore: 0 }).reasons).toEqual([
      { signal: 'suspectScore', action: 'challenge', detail: 'score>0' },
    ]);
    expect(score(25, { maxSuspectScore: 25 }).action).toBe('allow');
  });

  it('confidence: from minConfidence (0.5) up allows, below it challenges', () => {
    expect(confidence(0.5).action).toBe('allow');
    expect(confidence(0.4999).reasons).toEqual([{ signal: 'confidence', action: 'challenge', detail: 'score<0.5' }]);
    expect(confidence(0).action).toBe('challenge');
    expect(confidence(0, { minConfidence: 0 }).action).toBe('allow');
    expect(confidence(0.89, { minConfidence: 0.9 }).reasons).toEqual([
      { signal: 'confidence', action: 'challenge', detail: 'score<0.9' },
    ]);
  });

  it('tampering.anomalyScore: up to maxAnomalyScore (0.5) allows, above it blocks', () => {
    expect(anomaly(0.5).action).toBe('allow');
    expect(anomaly(0.5000001).reasons).toEqual([{ signal: 'tampering', action: 'block', detail: 'anomalyScore>0.5' }]);
    expect(anomaly(1, { maxAnomalyScore: 1 }).action).toBe('allow');
    expect(anomaly(0.31, { maxAnomalyScore: 0.3 }).reasons).toEqual([
      { signal: 'tampering', action: 'block', detail: 'anomalyScore>0.3' },
    ]);
  });

  it('factoryReset: a reset less than factoryResetWithinMs (7 days) ago challenges', () => {
    expect(resetAgo(7 * DAY_MS - 1).action).toBe('challenge');
    expect(resetAgo(7 * DAY_MS).action).toBe('allow');
    expect(resetAgo(0).action).toBe('challenge');
    expect(resetAgo(DAY_MS - 1, { factoryResetWithinMs: DAY_MS }).action).toBe('challenge');
    expect(resetAgo(DAY_MS, { factoryResetWithinMs: DAY_MS }).action).toBe('allow');
    expect(resetAgo(0, { factoryResetWithinMs: 0 }).action).toBe('allow');
  });

  it('factoryReset: the window is measured back from options.now, by default Date.now()', () => {
    const info = secureInfoWith({ factoryReset: { timestamp: seconds(NOW - DAY_MS) } });
    expect(assessRisk(info, undefined, { now: NOW }).action).toBe('challenge');
    expect(assessRisk(info, undefined, { now: NOW + 7 * DAY_MS }).action).toBe('allow');
    vi.useFakeTimers({ now: NOW + 30 * DAY_MS });
    expect(assessRisk(info).action).toBe('allow');
    vi.setSystemTime(NOW);
    expect(assessRisk(info).action).toBe('challenge');
  });
  afterEach(() => {
    vi.useRealTimers();
  });
});

describe('assessRisk: missing signals', () => {
  it.each(['bot', 'vpn', 'tampering'] as const)('blocks when the required signal %s is absent', (name) => {
    expect(assess(secureInfoWith({ [name]: undefined }))).toEqual({
      action: 'block',
      reasons: [{ signal: 'missing', action: 'block', detail: name }],
      score: 0,
    });
  });

  it('reads a null signal as absent', () => {
    expect(assess(secureInfoWith({ vpn: null })).reasons).toEqual([
      { signal: 'missing', action: 'block', detail: 'vpn' },
    ]);
  });

  it.each(SIGNAL_NAMES.filter((name) => !['bot', 'vpn', 'tampering'].includes(name)))(
    'allows when %s, which need not be there, is absent',
    (name) => {
      expect(assess(secureInfoWith({ [name]: undefined })).action).toBe('allow');
    },
  );

  it('names every absent required signal', () => {
    expect(assess({ incognito: false }).reasons).toEqual([
      { signal: 'missing', action: 'block', detail: 'bot' },
      { signal: 'missing', action: 'block', detail: 'vpn' },
      { signal: 'missing', action: 'block', detail: 'tampering' },
    ]);
  });

  it('follows requiredSignals and the missing action of the policy', () => {
    const noBot = secureInfoWith({ bot: undefined });
    const noScore = secureInfoWith({ suspectScore: undefined });
    expect(assess(noBot, { requiredSignals: ['suspectScore'] }).action).toBe('allow');
    expect(assess(noScore, { requiredSignals: ['suspectScore'] }).reasons).toEqual([
      { signal: 'missing', action: 'block', detail: 'suspectScore' },
    ]);
    expect(assess(noScore)).toEqual({ action: 'allow', reasons: [] });
    expect(assess(noBot, { missing: 'challenge' }).action).toBe('challenge');
    expect(assess(undefined, { missing: 'challenge' })).toEqual({
      action: 'challenge',
      reasons: [{ signal: 'missing', action: 'challenge', detail: 'secureInfo' }],
    });
    expect(assess(null, { missing: 'allow' })).toEqual({ action: 'allow', reasons: [] });
  });
});

describe('assessRisk: malformed signals', () => {
  /** One malformed value per signal: present, but of the wrong type or out of range. */
  const MALFORMED: Record<SignalName, unknown[]> = {
    incognito: ['false', 0, {}],
    confidence: [{ score: 1.5 }, { score: '0.9' }, { revision: 'v1' }, 0.9],
    bot: [{ result: 42 }, { result: null }, {}, 'bad'],
    rootApps: [{ result: 'false' }, { result: 0 }, false],
    emulator: [{ result: 'true' }, {}],
    vpn: [
      'yes',
      true,
      { result: 'yes' },
      { result: true, methods: ['publicVPN'] },
      { result: false, methods: { publicVPN: 'yes' } },
    ],
    tampering: [
      { result: 'no' },
      { anomalyScore: 0.1 },
      { result: false, anomalyScore: 2 },
      { result: false, anomalyScore: -0.1 },
    ],
    jailbroken: [{ result: 1 }],
    clonedApp: [{ result: [] }],
    factoryReset: [
      {},
      { time: 'yesterday' },
      { time: '1' },
      { time: '2026-11-22' },
      { time: 12 },
      { timestamp: -1 },
      { timestamp: '0' },
      { timestamp: 1e306 },
      0,
    ],
    frida: [[]],
    suspectScore: [{ result: -1 }, { result: '3' }, {}, 3],
    privacySettings: [{ result: 'no' }],
    virtualMachine: [{ result: {} }],
    locationSpoofing: [{ result: 'false' }],
    developerTools: [{ result: 'false' }],
  };
  const cases = SIGNAL_NAMES.flatMap((name) =>
    MALFORMED[name].map((value) => [name, JSON.stringify(value), value] as const),
  );

  it.each(cases)('blocks %s = %s as malformed', (name, _shown, value) => {
    const verdict = assess(secureInfoWith({ [name]: value }));
    expect(verdict.action).toBe('block');
    expect(verdict.reasons).toContainEqual({ signal: 'malformed', action: 'block', detail: name });
  });

  it('blocks a signal whose getter throws as malformed', () => {
    const info = throwingGetter('frida', secureInfoWith({}));
    expect(assess(info).reasons).toEqual([{ signal: 'malformed', action: 'block', detail: 'frida' }]);
    const nested = secureInfoWith({ bot: throwingGetter('result') });
    expect(assess(nested).reasons).toEqual([{ signal: 'malformed', action: 'block', detail: 'bot' }]);
  });

  it('ignores members it does not read, whatever their type', () => {
    const info = secureInfoWith({
      confidence: { score: 0.9, revision: 7 },
      vpn: { result: false, originCountry: 0, originTimezone: null, methods: { somethingNew: 'x' } },
      newSignal: 'anything',
    });
    expect(assess(info).action).toBe('allow');
  });

  it('leaves the suspect score out when it is malformed', () => {
    expect(assess(secureInfoWith({ suspectScore: { result: '3' } }))).not.toHaveProperty('score');
  });

  it('follows the malformed action of the policy', () => {
    expect(assess(secureInfoWith({ bot: { result: 42 } }), { malformed: 'challenge' }).action).toBe('challenge');
    expect(assess(42, { malformed: 'allow' })).toEqual({ action: 'allow', reasons: [] });
  });
});

describe('assessRisk: policy overrides', () => {
  it.each<[string, RiskPolicy, Record<string, unknown>, RiskVerdict['reasons']]>([
    [
      'vpn block',
      { vpn: 'block' },
      vpn(true, { publicVPN: true }),
      [{ signal: 'vpn', action: 'block', detail: 'publicVPN' }],
    ],
    ['incognito block', { incognito: 'block' }, { incognito: true }, [{ signal: 'incognito', action: 'block' }]],
    [
      'privacySettings challenge',
      { privacySettings: 'challenge' },
      { privacySettings: { result: true } },
      [{ signal: 'privacySettings', action: 'challenge' }],
    ],
    ['bot allow', { bot: 'allow' }, { bot: { result: 'bad' } }, []],
    [
      'emulator challenge',
      { emulator: 'challenge' },
      { emulator: { result: true } },
      [{ signal: 'emulator', action: 'challenge' }],
    ],
    [
      'privacyRelay challenge',
      { privacyRelay: 'challenge' },
      vpn(true, { osMismatch: true }),
      [{ signal: 'vpn', action: 'challenge', detail: 'privacyRelay' }],
    ],
    [
      'privacyRelay stricter than vpn: a relay with more evidence takes the stricter',
      { privacyRelay: 'block', vpn: 'challenge' },
      vpn(true, { osMismatch: true, publicVPN: true }),
      [{ signal: 'vpn', action: 'block', detail: 'publicVPN+osMismatch' }],
    ],
    [
      'factoryReset block',
      { factoryReset: 'block' },
      { factoryReset: { timestamp: seconds(NOW) } },
      [{ signal: 'factoryReset', action: 'block', detail: 'recent' }],
    ],
    [
      'confidence block',
      { confidence: 'block' },
      { confidence: { score: 0.1 } },
      [{ signal: 'confidence', action: 'block', detail: 'score<0.5' }],
    ],
    [
      'suspectScore block',
      { suspectScore: 'block' },
      { suspectScore: { result: 11 } },
      [{ signal: 'suspectScore', action: 'block', detail: 'score>10' }],
    ],
  ])('%s', (_name, policy, changes, reasons) => {
    const verdict = assess(secureInfoWith(changes), policy);
    expect(verdict.reasons).toEqual(reasons);
    expect(verdict.action).toBe(reasons[0]?.action ?? 'allow');
  });

  it('throws a TypeError for an invalid policy or now, never for the input', () => {
    expect(() => assessRisk(cleanSecureInfo(), { vpn: 'deny' as never })).toThrow(TypeError);
    expect(() => assessRisk(cleanSecureInfo(), { maxSuspectScore: Number.NaN })).toThrow(/maxSuspectScore/);
    expect(() => assessRisk(cleanSecureInfo(), undefined, { now: Number.NaN })).toThrow(/now/);
  });
});

describe('assessRisk: the verdict', () => {
  it('takes the strictest action and lists every non-allow reason in signal order', () => {
    const info = secureInfoWith({
      incognito: true,
      confidence: { score: 0.2 },
      emulator: { result: true },
      vpn: { result: true, methods: { timezoneMismatch: true } },
      suspectScore: { result: 21 },
    });
    expect(assess(info)).toEqual({
      action: 'block',
      reasons: [
        { signal: 'confidence', action: 'challenge', detail: 'score<0.5' },
        { signal: 'emulator', action: 'block' },
        { signal: 'vpn', action: 'challenge', detail: 'timezoneMismatch' },
        { signal: 'suspectScore', action: 'challenge', detail: 'score>10' },
      ],
      score: 21,
    });
  });

  it('challenges when only challenges are asked for', () => {
    const info = secureInfoWith({ rootApps: { result: true }, virtualMachine: { result: true } });
    expect(assess(info).action).toBe('challenge');
  });

  it('reads -0 as 0', () => {
    expect(Object.is(assess(secureInfoWith({ suspectScore: { result: -0 } })).score, 0)).toBe(true);
  });
});

// What an app sees when it passes its own `now`.

describe('assessRisk: options.now', () => {
  it('refuses a now that is not a finite number, naming the option and what it wants', () => {
    for (const now of [Number.NaN, Number.POSITIVE_INFINITY, '1700000000000']) {
      expect(() => assessRisk(cleanSecureInfo(), undefined, { now: now as number })).toThrow(
        new TypeError('assessRisk: options.now must be a finite number of epoch milliseconds'),
      );
    }
  });

  it('reads a factory reset at the epoch as "no reset", even when now is within the window of 1970', () => {
    // The clean fixture's reset timestamp is 0; a now of 1 s would put it 1 s ago.
    const verdict = assessRisk(cleanSecureInfo(), { factoryReset: 'block' }, { now: 1000 });
    expect(verdict).toEqual({ action: 'allow', reasons: [], score: 0 });
  });
});
