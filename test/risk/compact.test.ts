import { describe, expect, it } from 'vitest';
import { assessRisk, compactSignals, type CompactSignals, type RiskVerdict } from '../../src/risk/index.js';
import type { LoginRiskRecord } from '../../src/session/loginRecord.js';
import { DAY_MS, NOW, cleanSecureInfo, secureInfoResponse, secureInfoWith, tokenResult } from './fixtures.js';

const at = { now: NOW };
const roundTrip = (compact: CompactSignals | null): unknown => JSON.parse(JSON.stringify(compact)) as unknown;

/** A full secure info with every member set and every number as long as a double gets. */
function worstCaseSecureInfo(): Record<string, unknown> {
  const raised = [
    'rootApps',
    'emulator',
    'jailbroken',
    'clonedApp',
    'frida',
    'privacySettings',
    'virtualMachine',
    'locationSpoofing',
    'developerTools',
  ];
  return secureInfoWith({
    ...Object.fromEntries(raised.map((name) => [name, { result: true }])),
    incognito: true,
    confidence: { score: 0.12345678901234568, revision: 'v'.repeat(500) },
    bot: { result: 'x'.repeat(10_000) },
    vpn: {
      result: true,
      originCountry: 'NL',
      originTimezone: 'Europe/Amsterdam',
      methods: { timezoneMismatch: true, publicVPN: true, auxiliaryMobile: true, osMismatch: true },
    },
    tampering: { result: true, anomalyScore: 0.9876543210987654 },
    factoryReset: { time: '2026-11-21T10:00:00.123Z', timestamp: 1763719200 },
    suspectScore: { result: 1.2345678901234567e300 },
  });
}

describe('compactSignals', () => {
  it('keeps a full secure info in well under 400 bytes of JSON', () => {
    const full = secureInfoResponse(cleanSecureInfo());
    const compact = compactSignals(full);
    expect(compact).toEqual({ v: 1, f: '0#n000000#0#0000', c: 0.99, a: 0.0123, r: 0, s: 0 });
    const bytes = Buffer.byteLength(JSON.stringify(compact));
    expect(bytes).toBeLessThan(400);
    expect(bytes).toBeLessThan(Buffer.byteLength(JSON.stringify(full.secure_info)) / 4);
  });

  it('stays under 400 bytes with every flag raised and the longest numbers', () => {
    const compact = compactSignals(worstCaseSecureInfo());
    expect(Buffer.byteLength(JSON.stringify(compact))).toBeLessThan(400);
    expect(compact?.f).toBe('1#u111111#1#1111');
    expect(compact?.m).toBe('tpao');
  });

  it('gives null when there are no signals at all', () => {
    for (const input of [
      undefined,
      null,
      {},
      { secureInfo: null },
      secureInfoResponse(undefined),
      { status: 'SUCCESS' },
    ]) {
      expect(compactSignals(input)).toBeNull();
    }
  });

  it('keeps a secure info that is not an object malformed', () => {
    for (const input of [42, 'x', [], secureInfoResponse('broken')]) {
      const compact = compactSignals(input);
      expect(compact).toEqual({ v: 1, f: '!' });
      expect(assessRisk(roundTrip(compact), undefined, at)).toEqual(assessRisk(input, undefined, at));
    }
  });

  it('keeps a malformed signal malformed, never cleaned into allow', () => {
    const info = secureInfoWith({ bot: { result: 42 }, vpn: 'yes' });
    const compact = compactSignals(info);
    expect(compact?.f).toBe('0#!00!000#0#0000');
    const expected: RiskVerdict = {
      action: 'block',
      reasons: [
        { signal: 'malformed', action: 'block', detail: 'bot' },
        { signal: 'malformed', action: 'block', detail: 'vpn' },
      ],
      score: 0,
    };
    expect(assessRisk(roundTrip(compact), undefined, at)).toEqual(expected);
    expect(assessRisk(roundTrip(compact), { malformed: 'challenge' }, at).action).toBe('challenge');
  });

  it('keeps absent signals absent, so requiredSignals still apply', () => {
    const compact = compactSignals(secureInfoWith({ bot: undefined, jailbroken: undefined }));
    expect(compact?.f).toBe('0#-0000-0#0#0000');
    expect(assessRisk(compact, undefined, at).reasons).toEqual([{ signal: 'missing', action: 'block', detail: 'bot' }]);
    expect(assessRisk(compact, { requiredSignals: ['jailbroken'] }, at).reasons).toEqual([
      { signal: 'missing', action: 'block', detail: 'jailbroken' },
    ]);
  });

  it('gives the same verdict as the input under other policies and times', () => {
    const info = worstCaseSecureInfo();
    const compact = roundTrip(compactSignals(tokenResult(info)));
    for (const policy of [
      undefined,
      { vpn: 'block' as const, privacyRelay: 'challenge' as const },
      { bot: 'allow' as const, maxSuspectScore: 1e301 },
    ]) {
      for (const now of [NOW, NOW + 30 * DAY_MS]) {
        expect(assessRisk(compact, policy, { now })).toEqual(assessRisk(info, policy, { now }));
      }
    }
  });

  it('keeps the factory reset to the millisecond, so the window boundary is judged the same', () => {
    const info = secureInfoWith({ factoryReset: { time: new Date(NOW - 7 * DAY_MS + 1).toISOString() } });
    const compact = roundTrip(compactSignals(info));
    expect(assessRisk(compact, undefined, at).action).toBe('challenge');
    expect(assessRisk(compact, undefined, { now: NOW + 1 }).action).toBe('allow');
  });

  it('is accepted bare or wrapped, and compacting it again changes nothing', () => {
    const compact = compactSignals(secureInfoWith({ vpn: { result: true, methods: { osMismatch: true } } }));
    expect(compact?.m).toBe('o');
    expect(compactSignals(compact)).toEqual(compact);
    expect(compactSignals({ secureInfo: compact })).toEqual(compact);
    expect(assessRisk({ secure_info: compact }, { privacyRelay: 'block' }, at).action).toBe('block');
  });

  it('fits the login record of the strategy', () => {
    const signals = compactSignals(cleanSecureInfo());
    const record: LoginRiskRecord = { signals, action: assessRisk(signals, undefined, at).action, at: NOW };
    expect(record.action).toBe('allow');
  });

  it.each<[string, unknown]>([
    ['f too short', { v: 1, f: '0#n' }],
    ['f too long', { v: 1, f: '0#n000000#0#00000' }],
    ['an unknown flag', { v: 1, f: '0#x000000#0#0000', c: 1, r: 0, s: 0 }],
    ['a # without its number', { v: 1, f: '0#n000000#0#0000', r: 0, s: 0 }],
    ['a number out of range', { v: 1, f: '0#n000000#0#0000', c: 2, r: 0, s: 0 }],
    ['a negative reset', { v: 1, f: '0#n000000#0#0000', c: 1, r: -5, s: 0 }],
    ['an anomaly score as a string', { v: 1, f: '0#n000000#0#0000', c: 1, r: 0, s: 0, a: '0.1' }],
    ['vpn methods out of order', { v: 1, f: '0#n001000#0#0000', c: 1, r: 0, s: 0, m: 'ot' }],
    ['vpn methods unknown', { v: 1, f: '0#n001000#0#0000', c: 1, r: 0, s: 0, m: 'x' }],
    ['a boolean flag where a number belongs', { v: 1, f: '01n000000#0#0000', r: 0, s: 0 }],
  ])('reads a changed compact form (%s) as a malformed secure info', (_name, compact) => {
    expect(assessRisk(compact, undefined, at)).toEqual({
      action: 'block',
      reasons: [{ signal: 'malformed', action: 'block', detail: 'secureInfo' }],
    });
  });

  it('reads an object with v: 1 but no string f as a raw secure info', () => {
    expect(assessRisk({ ...cleanSecureInfo(), v: 1 }, undefined, at).action).toBe('allow');
    expect(assessRisk({ v: 1, f: 5 }, undefined, at).reasons).toEqual([
      { signal: 'missing', action: 'block', detail: 'secureInfo' },
    ]);
  });
});
