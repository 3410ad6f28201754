/**
 * One declarative table per options type: each option's check, default and one-line doc, keyed
 * by its name. The known-name list, the checking with defaults and the docs' option reference
 * all come from it, so adding an option is one entry (and one field of the interface).
 */
import { optionsObject, ownOptions, refuseUnknownOptions } from '../options.js';

/**
 * Checks one option's own value (`undefined` when not given and without a default) and returns
 * it as used; throws `optionError(owner, name, ...)`. `name` is the full name (`limits.perIp`).
 */
export type OptionCheck<V> = (value: unknown, owner: string, name: string) => V;

/** One option of a table. */
export interface OptionEntry {
  /** Its check; an entry without one is known here but checked where it is used. */
  readonly check?: OptionCheck<unknown>;
  /** The value used when the option is not given; it goes through `check` like a given one. */
  readonly default?: unknown;
  /** The docs' default cell when `default` alone does not say it (markdown). */
  readonly defaultDoc?: string;
  /** The docs' one-line description (markdown). */
  readonly doc: string;
}

/**
 * A table for the options interface `O`: exactly one entry per key of `O`. Used as
 * `satisfies OptionTable<O>`, a key added to the interface and not the table (or the other way
 * round) is a compile error.
 */
export type OptionTable<O extends object> = { readonly [K in keyof Required<O>]: OptionEntry };

/** What one entry's check gives: without `undefined` when the entry has a default. */
type CheckedValue<E> = E extends { check: OptionCheck<infer V> }
  ? E extends { default: unknown }
    ? Exclude<V, undefined>
    : V
  : never;

/** The checked options of a table: one field per entry that has a check. */
export type CheckedOptions<T> = {
  -readonly [K in keyof T as T[K] extends { check: OptionCheck<unknown> } ? K : never]: CheckedValue<T[K]>;
};

/** The option names of a table, in its order. */
export function optionNames(table: object): string[] {
  return Object.keys(table);
}

/**
 * Checks `options` (own keys only, see `ownOptions`) against `table`: an unknown key throws the
 * nearest-name error, then every entry with a check runs in the table's order, on the given
 * value or the default. `path` prefixes nested option names (`'limits.'`).
 */
export function checkWithTable<T extends object>(
  table: T,
  owner: string,
  options: object,
  path = '',
): CheckedOptions<T> {
  const own = ownOptions(options) as Record<string, unknown>;
  refuseUnknownOptions(owner, own, optionNames(table), path);
  const checked: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(table) as [string, OptionEntry][]) {
    if (entry.check === undefined) continue;
    const value = own[name] === undefined ? entry.default : own[name];
    checked[name] = entry.check(value, owner, `${path}${name}`);
  }
  return checked as CheckedOptions<T>;
}

/**
 * `checkWithTable` on a top-level options argument: first the package's checks of the argument
 * itself (an object, no `callbackURL`-style spelling), with `expected` in the error.
 */
export function checkOptionsArgument<T extends object>(
  table: T,
  owner: string,
  given: unknown,
  expected: string,
): CheckedOptions<T> {
  return checkWithTable(table, owner, optionsObject<object>(owner, given, expected));
}
