/**
 * The one reading of the service's times (src/wire/time.ts): what reads, and what is refused
 * the same way by the client's shapes, the token age check, the profile and the risk signals.
 */
import { describe, expect, it } from 'vitest';
import { readAuthTime, readEpochMs, readEpochSeconds, readIsoTime } from '../../src/wire/time.js';

const AT = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('readIsoTime: ISO 8601 with a zone, nothing looser', () => {
  it.each([
    ['2026-11-22T10:00:00Z', AT],
    ['2026-11-22T10:00:00.000Z', AT],
    ['2026-11-22T10:00Z', AT],
    ['2026-11-22T10:00:00.123456789Z', AT + 123],
    ['2026-11-22T15:30:00+05:30', AT],
    ['2026-11-22T05:00:00-05:00', AT],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['1970-01-01T00:00:00Z', 0],
  ])('%s reads', (text, ms) => {
    expect(readIsoTime(text)).toBe(ms);
  });

  it.each([
    ['no zone: local time of which server?', '2026-11-22T10:00:00'],
    ['a date alone', '2026-11-22'],
    ['a day past the month', '2026-02-30T00:00:00Z'],
    ['29 February of a common year', '2026-02-29T00:00:00Z'],
    ['hour 24', '2026-11-22T24:00:00Z'],
    ['second 60', '2026-11-22T10:00:60Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['a space for T', '2026-11-22 10:00:00Z'],
    ['a year Date.parse reads from "1"', '1'],
    ['before 1970', '1969-12-31T23:59:59Z'],
    ['an offset without colon', '2026-11-22T10:00:00+0530'],
    ['an offset hour 24', '2026-11-22T10:00:00+24:00'],
    ['a number', AT],
    ['null', null],
  ])('%s is refused', (_what, value) => {
    expect(readIsoTime(value)).toBeUndefined();
  });
});

describe('readEpochMs and readEpochSeconds: integers only', () => {
  it('whole epoch values read', () => {
    expect(readEpochMs(AT)).toBe(AT);
    expect(readEpochMs(0)).toBe(0);
    expect(readEpochSeconds(AT / 1000)).toBe(AT);
  });

  it.each([AT + 0.5, -1, Number.NaN, Infinity, String(AT), 8.64e15 + 1, null])('%s is refused', (value) => {
    expect(readEpochMs(value)).toBeUndefined();
    expect(readEpochSeconds(value === null ? null : typeof value === 'number' ? value / 1000 + 0.25 : value)).toBe(
      undefined,
    );
  });
});

describe("readAuthTime: userInfo's auth_time string", () => {
  it('epoch seconds in digits, or an ISO time with a zone', () => {
    expect(readAuthTime(String(AT / 1000))).toBe(AT);
    expect(readAuthTime('2026-11-22T10:00:00Z')).toBe(AT);
  });
  it.each(['', '17953416OO', '1795341600.5', '2026-11-22T10:00:00', 1795341600])('%s is refused', (value) => {
    expect(readAuthTime(value)).toBeUndefined();
  });
});
