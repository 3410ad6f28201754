/**
 * The compact form of the signals: what a session keeps after login, so a guard can judge the
 * login again later, under any policy, without the raw service answer.
 *
 * The form is documented, so it is no secret: whoever reads it knows the signals. That is why
 * the login record keeps it encrypted in a cookie session (see `sessionCompat`) and in the
 * clear only on the server.
 *
 * A minimal `SecureInfo` (same member names) would be simpler but does not fit: the names alone
 * of the 16 signals take about 220 bytes and a full object about 490. So each signal is one
 * character of `f` and the four numbers the thresholds need travel beside it.
 */
import { SIGNAL_NAMES, type SignalName } from './policy.js';
import {
  MALFORMED,
  MALFORMED_READ,
  VPN_METHODS,
  isRecord,
  nonNegativeNumber,
  ownMember,
  readSecureInfo,
  unitNumber,
  unwrapSecureInfo,
  type BotValue,
  type SignalReadings,
  type SignalValues,
  type SignalsRead,
  type VpnMethod,
} from './signals.js';

/**
 * The signals in compact form (about 60 bytes of JSON for a full secure info).
 *
 * `f` holds one character per signal, in `SIGNAL_NAMES` order: `-` absent, `!` malformed;
 * for true/false signals (and the `result` of vpn and tampering) `0` or `1`; for bot `n`
 * notDetected, `g` good, `b` bad, `u` any other value; `#` for confidence, suspectScore and
 * factoryReset, whose numbers are in `c`, `s` and `r`. `f` is `!` alone when the secure info
 * itself was not an object.
 *
 * @example { v: 1, f: '0#n001000#0#0000', c: 0.99, m: 'o', a: 0.2, r: 0, s: 3 }
 */
export interface CompactSignals {
  /** Format version. */
  v: 1;
  f: string;
  /** `confidence.score`. */
  c?: number;
  /** `suspectScore.result`. */
  s?: number;
  /** `tampering.anomalyScore`, when it was there. */
  a?: number;
  /** Epoch ms of the latest factory reset; 0 when there was none. */
  r?: number;
  /** The vpn methods that were true: `t` timezoneMismatch, `p` publicVPN, `a` auxiliaryMobile, `o` osMismatch. */
  m?: string;
}

const WHOLE_MALFORMED = '!';
const NUMBER_FLAG = '#';
const METHOD_LETTERS: Readonly<Record<VpnMethod, string>> = {
  timezoneMismatch: 't',
  publicVPN: 'p',
  auxiliaryMobile: 'a',
  osMismatch: 'o',
};
const METHODS_PATTERN = /^t?p?a?o?$/;
const BOT_FLAGS: Readonly<Record<BotValue, string>> = { notDetected: 'n', good: 'g', bad: 'b', unknown: 'u' };

/** What a decoder returns for a compact form this code did not write; never leaves this file. */
const INVALID = Symbol('invalid compact form');

interface Codec<T> {
  encode(value: T, out: CompactSignals): string;
  /** The value for flag `f` (never `-` or `!`), or INVALID. */
  decode(f: string, compact: Record<string, unknown>): T | typeof INVALID;
}

const bit = (value: boolean): string => (value ? '1' : '0');
const unbit = (f: string): boolean | typeof INVALID => (f === '1' ? true : f === '0' ? false : INVALID);

const BOOLEAN: Codec<boolean> = { encode: bit, decode: unbit };

function numberCodec(field: 'c' | 's' | 'r', check: (value: unknown) => number | typeof MALFORMED): Codec<number> {
  return {
    encode(value, out) {
      out[field] = value;
      return NUMBER_FLAG;
    },
    decode(f, compact) {
      const value = check(compact[field]);
      return f === NUMBER_FLAG && value !== MALFORMED ? value : INVALID;
    },
  };
}

const CODECS: { [K in SignalName]: Codec<SignalValues[K]> } = {
  incognito: BOOLEAN,
  confidence: numberCodec('c', unitNumber),
  bot: {
    encode: (value) => BOT_FLAGS[value],
    decode: (f) => (Object.keys(BOT_FLAGS) as BotValue[]).find((value) => BOT_FLAGS[value] === f) ?? INVALID,
  },
  rootApps: BOOLEAN,
  emulator: BOOLEAN,
  vpn: {
    encode(value, out) {
      if (value.methods.length > 0) out.m = value.methods.map((method) => METHOD_LETTERS[method]).join('');
      return bit(value.result);
    },
    decode(f, compact) {
      const result = unbit(f);
      const letters = compact.m ?? '';
      if (result === INVALID || typeof letters !== 'string' || !METHODS_PATTERN.test(letters)) return INVALID;
      return { result, methods: VPN_METHODS.filter((method) => letters.includes(METHOD_LETTERS[method])) };
    },
  },
  tampering: {
    encode(value, out) {
      if (value.anomalyScore !== undefined) out.a = value.anomalyScore;
      return bit(value.result);
    },
    decode(f, compact) {
      const result = unbit(f);
      if (result === INVALID) return INVALID;
      if (compact.a === undefined) return { result };
      const anomalyScore = unitNumber(compact.a);
      return anomalyScore === MALFORMED ? INVALID : { result, anomalyScore };
    },
  },
  jailbroken: BOOLEAN,
  clonedApp: BOOLEAN,
  factoryReset: numberCodec('r', nonNegativeNumber),
  frida: BOOLEAN,
  suspectScore: numberCodec('s', nonNegativeNumber),
  privacySettings: BOOLEAN,
  virtualMachine: BOOLEAN,
  locationSpoofing: BOOLEAN,
  developerTools: BOOLEAN,
};

function encodeSignal<K extends SignalName>(name: K, reading: SignalReadings[K], out: CompactSignals): string {
  if (reading === undefined) return '-';
  if (reading === MALFORMED) return '!';
  return CODECS[name].encode(reading as SignalValues[K], out);
}

function decodeSignal<K extends SignalName>(
  name: K,
  f: string,
  compact: Record<string, unknown>,
): SignalReadings[K] | typeof INVALID {
  if (f === '-') return undefined;
  if (f === '!') return MALFORMED;
  return CODECS[name].decode(f, compact);
}

/** A compact form is told apart from a raw secure info by `v: 1` and a string `f`. */
function isCompactForm(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && ownMember(value, 'v') === 1 && typeof ownMember(value, 'f') === 'string';
}

/**
 * Any inconsistency (a changed cookie, a later format) reads as a malformed secure info; so
 * does `f: '!'`, the form `compactSignals` gives a secure info that was not an object.
 */
function decodeCompact(compact: Record<string, unknown>): SignalsRead {
  const flags = compact.f as string;
  if (flags.length !== SIGNAL_NAMES.length) return MALFORMED_READ;
  const signals: SignalReadings = {};
  for (const [index, name] of SIGNAL_NAMES.entries()) {
    const reading = decodeSignal(name, flags.charAt(index), compact);
    if (reading === INVALID) return MALFORMED_READ;
    if (reading !== undefined) (signals as Record<SignalName, unknown>)[name] = reading;
  }
  return { kind: 'present', signals };
}

/**
 * Reads any input `assessRisk` accepts: a secure info, the response or result that holds it,
 * or its compact form (bare or wrapped the same way). Never throws.
 */
export function readRiskInput(input: unknown): SignalsRead {
  try {
    const info = unwrapSecureInfo(input);
    return isCompactForm(info) ? decodeCompact(info) : readSecureInfo(info);
  } catch {
    return MALFORMED_READ;
  }
}

/**
 * The signals in a small JSON-serializable form, to keep in the session after login;
 * `null` when there are no signals at all. Judging the compact form gives the same verdict as
 * judging the input, under any policy: `assessRisk(compactSignals(x), p)` equals
 * `assessRisk(x, p)`. Malformed signals stay malformed. Accepts what `assessRisk` accepts and
 * never throws.
 *
 * @example
 * const signals = compactSignals(result.secureInfo); // { v: 1, f: '0#n000000#0#0000', c: 0.98, ... }
 * const readAt = Date.now();
 * // later, under a route's policy, as of when they were read:
 * assessRisk(signals, { vpn: 'block' }, { now: readAt });
 */
export function compactSignals(input: unknown): CompactSignals | null {
  const read = readRiskInput(input);
  if (read.kind === 'missing') return null;
  if (read.kind === 'malformed') return { v: 1, f: WHOLE_MALFORMED };
  const out: CompactSignals = { v: 1, f: '' };
  out.f = SIGNAL_NAMES.map((name) => encodeSignal(name, read.signals[name], out)).join('');
  return out;
}
