/**
 * Reading the secure info defensively: each signal becomes a checked value, `'malformed'`, or
 * absent. Nothing here throws and nothing here judges; `assessRisk` judges the result.
 *
 * Rules: only own members are read (JSON data has no others); `null` reads as absent; a
 * member a signal cannot do without (`result`, `score`) that is absent, or any member of the
 * wrong type or out of its range, makes the whole signal malformed; members that are not read
 * (`revision`, `originCountry`, ...) are not checked.
 *
 * The client drops a malformed signal from its checked answer and lists it under
 * `DROPPED_MEMBERS`: such a signal reads as malformed here too, as it would in the raw answer,
 * so the client's tolerance never turns a bad signal into an absent (or clean) one.
 */
import { readEpochSeconds, readIsoTime } from '../wire/time.js';
import { DROPPED_MEMBERS } from '../wire/types.js';
import { SIGNAL_NAMES, type SignalName } from './policy.js';

export const MALFORMED = 'malformed';
export type Malformed = typeof MALFORMED;

/** `unknown` stands for any bot value other than the three known ones. */
export type BotValue = 'notDetected' | 'good' | 'bad' | 'unknown';
const KNOWN_BOT_VALUES: ReadonlySet<string> = new Set(['notDetected', 'good', 'bad']);

export const VPN_METHODS = ['timezoneMismatch', 'publicVPN', 'auxiliaryMobile', 'osMismatch'] as const;
export type VpnMethod = (typeof VPN_METHODS)[number];

export interface VpnReading {
  result: boolean;
  /** The methods that were `true`, in `VPN_METHODS` order. */
  methods: VpnMethod[];
}

export interface TamperingReading {
  result: boolean;
  anomalyScore?: number;
}

/** What each signal reads as when it is well formed. */
export interface SignalValues {
  incognito: boolean;
  /** `confidence.score`, 0..1. */
  confidence: number;
  bot: BotValue;
  rootApps: boolean;
  emulator: boolean;
  vpn: VpnReading;
  tampering: TamperingReading;
  jailbroken: boolean;
  clonedApp: boolean;
  /** Epoch ms of the latest reset given by `time` or `timestamp`; 0 (the 1970 epoch) = none. */
  factoryReset: number;
  frida: boolean;
  /** `suspectScore.result`, >= 0. */
  suspectScore: number;
  privacySettings: boolean;
  virtualMachine: boolean;
  locationSpoofing: boolean;
  developerTools: boolean;
}

/** Every signal: its value, `'malformed'`, or `undefined` when absent. */
export type SignalReadings = { [K in SignalName]?: SignalValues[K] | Malformed };

/** The whole input: no signals at all, not an object at all, or the signals read one by one. */
export type SignalsRead = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'present'; signals: SignalReadings };

export const MISSING_READ: SignalsRead = Object.freeze({ kind: 'missing' });
export const MALFORMED_READ: SignalsRead = Object.freeze({ kind: 'malformed' });

/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own member; absent and `null` both give `undefined`. May throw (getters, proxies). */
export function ownMember(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? ((record as Record<string, unknown>)[key] ?? undefined) : undefined;
}

/**
 * The secure info inside a validate-token result (`secureInfo`) or a secure-info response
 * (`secure_info`); any other input is returned as it is. May throw (getters, proxies).
 */
export function unwrapSecureInfo(input: unknown): unknown {
  if (!isRecord(input)) return input;
  if (!Object.hasOwn(input, 'secureInfo') && !Object.hasOwn(input, 'secure_info')) {
    // A secure info the client dropped as malformed: a non-object, which reads as malformed.
    return wasDropped(input, 'secureInfo') || wasDropped(input, 'secure_info') ? MALFORMED : input;
  }
  return ownMember(input, 'secureInfo') ?? ownMember(input, 'secure_info');
}

/** True when the client dropped `key` from `record` as malformed (see `DROPPED_MEMBERS`). May throw (proxies). */
function wasDropped(record: object, key: string): boolean {
  const dropped = Object.hasOwn(record, DROPPED_MEMBERS)
    ? (record as { [DROPPED_MEMBERS]?: unknown })[DROPPED_MEMBERS]
    : undefined;
  return Array.isArray(dropped) && dropped.includes(key);
}

/** A finite number from `min` to `max`, with -0 read as 0; otherwise malformed. */
function numberIn(value: unknown, min: number, max: number): number | Malformed {
  return typeof value === 'number' && value >= min && value <= max ? value + 0 : MALFORMED;
}

/** A number from 0 to 1 (scores), or malformed. */
export function unitNumber(value: unknown): number | Malformed {
  return numberIn(value, 0, 1);
}

/** A finite number >= 0, or malformed. */
export function nonNegativeNumber(value: unknown): number | Malformed {
  return numberIn(value, 0, Number.MAX_VALUE);
}

function flag(value: unknown): boolean | Malformed {
  return typeof value === 'boolean' ? value : MALFORMED;
}

/** Runs `read` on the members of an object signal; a signal that is not an object is malformed. */
function readObject<T>(raw: unknown, read: (member: (key: string) => unknown) => T | Malformed): T | Malformed {
  return isRecord(raw) ? read((key) => ownMember(raw, key)) : MALFORMED;
}

const readResultFlag = (raw: unknown): boolean | Malformed => readObject(raw, (member) => flag(member('result')));

function readVpn(raw: unknown): VpnReading | Malformed {
  return readObject(raw, (member) => {
    const result = flag(member('result'));
    const methodsRaw = member('methods');
    if (result === MALFORMED || (methodsRaw !== undefined && !isRecord(methodsRaw))) return MALFORMED;
    const methods: VpnMethod[] = [];
    for (const method of VPN_METHODS) {
      const value = methodsRaw === undefined ? undefined : ownMember(methodsRaw, method);
      if (value === undefined) continue;
      if (typeof value !== 'boolean') return MALFORMED;
      if (value) methods.push(method);
    }
    return { result, methods };
  });
}

function readTampering(raw: unknown): TamperingReading | Malformed {
  return readObject(raw, (member) => {
    const result = flag(member('result'));
    const scoreRaw = member('anomalyScore');
    if (scoreRaw === undefined) return result === MALFORMED ? MALFORMED : { result };
    const anomalyScore = unitNumber(scoreRaw);
    return result === MALFORMED || anomalyScore === MALFORMED ? MALFORMED : { result, anomalyScore };
  });
}

/** The latest reset that `time` (ISO) or `timestamp` (epoch seconds) gives, read by src/wire/time.ts. */
function readFactoryReset(raw: unknown): number | Malformed {
  return readObject(raw, (member) => {
    const time = member('time');
    const timestamp = member('timestamp');
    if (time === undefined && timestamp === undefined) return MALFORMED;
    let latest = 0;
    if (time !== undefined) {
      const ms = readIsoTime(time);
      if (ms === undefined) return MALFORMED;
      latest = ms;
    }
    if (timestamp !== undefined) {
      const ms = readEpochSeconds(timestamp);
      if (ms === undefined) return MALFORMED;
      // Two disagreeing times: the later one is the stricter reading.
      latest = Math.max(latest, ms);
    }
    return latest;
  });
}

const READERS: { [K in SignalName]: (raw: unknown) => SignalValues[K] | Malformed } = {
  incognito: flag,
  confidence: (raw) => readObject(raw, (member) => unitNumber(member('score'))),
  bot: (raw) =>
    readObject(raw, (member) => {
      const result = member('result');
      if (typeof result !== 'string') return MALFORMED;
      return KNOWN_BOT_VALUES.has(result) ? (result as BotValue) : 'unknown';
    }),
  rootApps: readResultFlag,
  emulator: readResultFlag,
  vpn: readVpn,
  tampering: readTampering,
  jailbroken: readResultFlag,
  clonedApp: readResultFlag,
  factoryReset: readFactoryReset,
  frida: readResultFlag,
  suspectScore: (raw) => readObject(raw, (member) => nonNegativeNumber(member('result'))),
  privacySettings: readResultFlag,
  virtualMachine: readResultFlag,
  locationSpoofing: readResultFlag,
  developerTools: readResultFlag,
};

function readSignal<K extends SignalName>(info: object, name: K): SignalReadings[K] {
  try {
    const raw = ownMember(info, name);
    if (raw === undefined) return wasDropped(info, name) ? MALFORMED : undefined;
    return READERS[name](raw);
  } catch {
    // A getter or proxy that throws: the signal is there but cannot be read.
    return MALFORMED;
  }
}

/**
 * Reads an (already unwrapped) secure info: `missing` when it is absent or holds no signal,
 * `malformed` when it is not an object. Never throws.
 */
export function readSecureInfo(info: unknown): SignalsRead {
  try {
    if (info === undefined || info === null) return MISSING_READ;
    if (!isRecord(info)) return MALFORMED_READ;
    const signals: SignalReadings = {};
    let found = false;
    for (const name of SIGNAL_NAMES) {
      const reading = readSignal(info, name);
      if (reading === undefined) continue;
      (signals as Record<SignalName, unknown>)[name] = reading;
      found = true;
    }
    return found ? { kind: 'present', signals } : MISSING_READ;
  } catch {
    return MALFORMED_READ;
  }
}
