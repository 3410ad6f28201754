/**
 * The common checks of option tables, each in the package's one error format (`optionError`):
 * an absent (`undefined`) value passes, so a table's `default` or the caller decides it.
 */
import { optionError } from '../options.js';
import type { OptionCheck } from './table.js';

/** A whole number in [min, max]. */
export function intFrom(min: number, max: number): OptionCheck<number | undefined> {
  return (value, owner, name) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw optionError(owner, name, `a whole number from ${min} to ${max}`);
    }
    return value;
  };
}

/** `true` or `false`. */
export const isBoolean: OptionCheck<boolean | undefined> = (value, owner, name) => {
  if (value !== undefined && typeof value !== 'boolean') throw optionError(owner, name, 'true or false');
  return value;
};

/** A function. */
export function isFunction<F>(): OptionCheck<F | undefined> {
  return (value, owner, name) => {
    if (value !== undefined && typeof value !== 'function') throw optionError(owner, name, 'a function');
    return value as F | undefined;
  };
}

/** One value of a fixed list. */
export function oneOf<V extends string>(allowed: readonly V[]): OptionCheck<V | undefined> {
  return (value, owner, name) => {
    if (value === undefined) return undefined;
    if (!(allowed as readonly unknown[]).includes(value)) {
      throw optionError(owner, name, `one of ${allowed.map((v) => `'${v}'`).join(', ')}`);
    }
    return value as V;
  };
}

/** A string that `test` accepts; `expected` says what it should have been. */
export function stringWhere(test: (value: string) => boolean, expected: string): OptionCheck<string | undefined> {
  return (value, owner, name) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !test(value)) throw optionError(owner, name, expected);
    return value;
  };
}

/** Any value, typed `V`: for an option whose check is its own object's (a client, a store). */
export function anyValue<V>(): OptionCheck<V | undefined> {
  return (value) => value as V | undefined;
}
