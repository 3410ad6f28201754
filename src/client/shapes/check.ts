import { readEpochMs, readIsoTime } from '../../wire/time.js';
import { DROPPED_MEMBERS } from '../../wire/types.js';

/**
 * A tiny, dependency-free toolkit for checking parsed JSON against the wire types.
 *
 * A `Check<T>` returns `undefined` when a value fits `T`, or a `Mismatch` naming the first
 * field that did not fit (a path such as `userDetails.identities[0].identityType`, never the
 * value, which may be a token). The phantom `T` plus the key-mapping types of `object()` make
 * the compiler reject a shape that forgets or misspells a field of its wire type.
 *
 * Policy shared by every shape: tolerant where it is safe, strict where it matters.
 * - required fields must be present with the right type: a misfit fails the whole answer;
 * - an optional field that does not fit is dropped (deleted, and its name listed under
 *   `DROPPED_MEMBERS` on its object), so it reads as absent: one odd location or device field
 *   never fails a login. A misfit deep inside climbs to the nearest optional field, which is
 *   the one dropped (a risk signal with a bad `result` is dropped whole);
 * - `mustFit(check)` marks an optional field a decision depends on (`verified`, the members of
 *   a risk signal that `assessRisk` judges): its misfit climbs on instead of being dropped;
 * - `null` in an optional field is treated as absent and removed, so the static type (`x?: T`,
 *   which excludes null) stays true;
 * - unknown extra fields are kept untouched.
 */

export interface Mismatch {
  /** Where, e.g. `requestIds[0].value`; empty for the value itself. */
  path: string;
  /** What was expected there, e.g. `a string`. */
  expected: string;
}

export interface Check<T> {
  (value: unknown): Mismatch | undefined;
  /** Phantom member tying the check to the type it proves; never set at runtime. */
  readonly __proves?: (value: T) => T;
  /** Set by `mustFit`: as an optional field, a misfit fails the parent instead of being dropped. */
  readonly mustFit?: true;
}

type Obj = Record<string, unknown>;

/** Keys declared by name (drops the `[extra: string]: unknown` index signature). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: unknown };
type RequiredKeys<T> = { [K in KnownKeys<T>]-?: object extends Pick<T, K> ? never : K }[KnownKeys<T>];
type OptionalKeys<T> = Exclude<KnownKeys<T>, RequiredKeys<T>>;

const miss = (expected: string): Mismatch => ({ path: '', expected });

/** Builds the path of a nested mismatch: `key` + `.inner` or `key[0]`. */
function under(key: string, m: Mismatch): Mismatch {
  const path = m.path === '' ? key : m.path.charCodeAt(0) === 91 /* [ */ ? key + m.path : `${key}.${m.path}`;
  return { path, expected: m.expected };
}

export function isRecord(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const string: Check<string> = (v) => (typeof v === 'string' ? undefined : miss('a string'));
export const boolean: Check<boolean> = (v) => (typeof v === 'boolean' ? undefined : miss('a boolean'));
/** A finite number (JSON can yield Infinity from `1e999`). */
export const number: Check<number> = (v) =>
  typeof v === 'number' && Number.isFinite(v) ? undefined : miss('a finite number');

/** A finite whole number (screen sizes, offsets, radii: spec "integer"). */
export const integer: Check<number> = (v) => (Number.isSafeInteger(v) ? undefined : miss('an integer'));
/** An ISO 8601 time with a zone, read by src/wire/time.ts (spec `<iso_timestamp>`). */
export const isoTime: Check<string> = (v) =>
  readIsoTime(v) === undefined ? miss('an ISO 8601 time with a zone') : undefined;
/** Whole epoch milliseconds, read by src/wire/time.ts (spec `<epoch_ms>`). */
export const epochMs: Check<number> = (v) =>
  readEpochMs(v) === undefined ? miss('whole epoch milliseconds') : undefined;

/** One of the listed strings. */
export function oneOf<S extends string>(...allowed: S[]): Check<S> {
  const expected = `one of ${allowed.join(', ')}`;
  return (v) => (typeof v === 'string' && (allowed as string[]).includes(v) ? undefined : miss(expected));
}

/**
 * An optional field whose misfit must fail its parent rather than be dropped: one a decision
 * depends on, where "absent" would mean something else than "unreadable".
 *
 * @example object<TokenIdentity>({ identityType, identityValue: string }, { verified: mustFit(boolean), ... })
 */
export function mustFit<T>(check: Check<T>): Check<T> {
  return Object.assign((v: unknown) => check(v), { mustFit: true as const });
}

/**
 * An array whose every item fits `item`, with at least `minLength` items. Items for which
 * `skip` is true are removed first (in place), then the rest must fit and be enough.
 */
export function arrayOf<T>(item: Check<T>, minLength = 0, skip?: (item: unknown) => boolean): Check<T[]> {
  const expected =
    minLength === 0 ? 'an array' : `an array of at least ${minLength} item(s)${skip ? ' of a known kind' : ''}`;
  return (v) => {
    if (!Array.isArray(v)) return miss(expected);
    if (skip) {
      for (let i = v.length - 1; i >= 0; i--) if (skip(v[i])) v.splice(i, 1);
    }
    if (v.length < minLength) return miss(expected);
    for (let i = 0; i < v.length; i++) {
      const m = item(v[i]);
      if (m !== undefined) return under(`[${i}]`, m);
    }
    return undefined;
  };
}

/**
 * An object with the `required` fields and, when present, the `optional` ones; an optional
 * field that does not fit is dropped (see the policy above). Both maps must list exactly the
 * named fields of `T` (checked at compile time).
 */
export function object<T>(
  required: { [K in RequiredKeys<T>]-?: Check<T[K]> },
  optional: { [K in OptionalKeys<T>]-?: Check<Exclude<T[K], undefined>> },
): Check<T> {
  const req = Object.entries(required as Record<string, Check<unknown>>);
  const opt = Object.entries(optional as Record<string, Check<unknown>>);
  return (v) => {
    if (!isRecord(v)) return miss('an object');
    for (const [key, check] of req) {
      const m = check(v[key]);
      if (m !== undefined) return under(key, m);
    }
    for (const [key, check] of opt) {
      const value = v[key];
      if (value === undefined) continue;
      if (value === null) {
        delete v[key];
        continue;
      }
      const m = check(value);
      if (m === undefined) continue;
      if (check.mustFit) return under(key, m);
      delete v[key];
      drop(v, key);
    }
    return undefined;
  };
}

/** Lists `key` under `DROPPED_MEMBERS`: enumerable, so a spread copy keeps the list. */
function drop(v: Obj & { [DROPPED_MEMBERS]?: string[] }, key: string): void {
  const dropped = v[DROPPED_MEMBERS];
  if (dropped) dropped.push(key);
  else v[DROPPED_MEMBERS] = [key];
}

/** Adds a whole-value rule to a check, e.g. "at least one of two optional fields". */
export function refine<T>(check: Check<T>, rule: (value: T) => boolean, expected: string): Check<T> {
  return (v) => check(v) ?? (rule(v as T) ? undefined : miss(expected));
}

/** Renders a mismatch for an error message: `field userDetails.token: expected a string`. */
export function describeMismatch(m: Mismatch): string {
  return m.path === '' ? `expected ${m.expected}` : `field ${m.path}: expected ${m.expected}`;
}
