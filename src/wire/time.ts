/**
 * The one reading of the service's times (spec section 2: ISO 8601 UTC strings and integers of
 * epoch milliseconds), shared by the client's shapes, the token age check, the profile and the
 * risk signals, so a time that one of them refuses is refused by all.
 *
 * Strict on purpose: `Date.parse` reads a zone-less string as local time (so the same answer
 * gives another age on another server), rolls `02-30` over to March and takes `24:00`. A time
 * that does not read is `undefined`; callers drop it (an optional member) or refuse what needs it.
 */

/** The latest instant a JavaScript `Date` can hold, in ms (ECMAScript's own limit). */
export const MAX_EPOCH_MS = 8_640_000_000_000_000;

// Date, `T`, time to the minute, optional seconds and fraction, and a zone: `Z` or `±hh:mm`.
// An explicit offset names one instant as surely as `Z` does; a missing zone does not.
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Epoch ms of an ISO 8601 timestamp with a zone (`2026-11-22T10:00:00.000Z`,
 * `2026-11-22T15:30:00+05:30`), or `undefined` for anything else: no zone, a day or hour out of
 * range, a year before 1970, a value that is not a string.
 *
 * @example readIsoTime('2026-11-22T10:00:00Z') // 1795341600000
 * @example readIsoTime('2026-11-22T10:00:00') // undefined: local time of which server?
 */
export function readIsoTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length > 40) return undefined;
  const m = ISO_UTC.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day < 1 || day > daysIn(year, month)) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Milliseconds: the fraction's first three digits; finer digits cannot change the ms.
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3));
  const at = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return at >= 0 && at <= MAX_EPOCH_MS ? at : undefined;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * An integer of epoch milliseconds from 0 to `MAX_EPOCH_MS`, or `undefined` (a fraction, a
 * negative number, a string of digits, NaN).
 *
 * @example readEpochMs(1795341600000) // 1795341600000
 * @example readEpochMs(1795341600.5) // undefined
 */
export function readEpochMs(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_EPOCH_MS
    ? value
    : undefined;
}

/**
 * Epoch ms of an integer of epoch seconds (`factoryReset.timestamp`), or `undefined`.
 *
 * @example readEpochSeconds(1795341600) // 1795341600000
 */
export function readEpochSeconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_EPOCH_MS / 1000
    ? value * 1000
    : undefined;
}

/**
 * userInfo's `auth_time`, a string the spec does not define: epoch seconds in digits (what
 * OpenID Connect's `auth_time` is), else an ISO 8601 time with a zone; `undefined` for anything
 * else.
 *
 * @example readAuthTime('1795341600') // 1795341600000
 */
export function readAuthTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d{1,13}$/.test(value)) return readEpochSeconds(Number(value));
  return readIsoTime(value);
}
