import { describe, expect, expectTypeOf, it } from 'vitest';
import { intFrom, isBoolean, oneOf } from '../../src/options/checks.js';
import { checkOptionsArgument, checkWithTable } from '../../src/options/table.js';
import type { OptionTable } from '../../src/options/table.js';

interface ExampleOptions {
  mode?: 'fast' | 'slow';
  size?: number;
  strict?: boolean;
  hook?: () => void;
}

const EXAMPLE = {
  mode: { check: oneOf(['fast', 'slow'] as const), default: 'fast', doc: 'the mode' },
  size: { check: intFrom(1, 10), doc: 'the size' },
  strict: { check: isBoolean, default: false, doc: 'strict or not' },
  hook: { doc: 'checked where it is used' },
} satisfies OptionTable<ExampleOptions>;

describe('an option table', () => {
  it('applies defaults, keeps given values and leaves out the entries it does not check', () => {
    const checked = checkWithTable(EXAMPLE, 'Example', { size: 3, hook: () => undefined });
    expect(checked).toEqual({ mode: 'fast', size: 3, strict: false });
    expectTypeOf(checked).toEqualTypeOf<{ mode: 'fast' | 'slow'; size: number | undefined; strict: boolean }>();
  });

  it('runs the check on each given value, naming the option with its path', () => {
    expect(() => checkWithTable(EXAMPLE, 'Example', { size: 11 }, 'inner.')).toThrow(
      'Example: options.inner.size must be a whole number from 1 to 10',
    );
    expect(() => checkWithTable(EXAMPLE, 'Example', { mode: 'FAST' })).toThrow(
      "Example: options.mode must be one of 'fast', 'slow'",
    );
    expect(() => checkWithTable(EXAMPLE, 'Example', { strict: null })).toThrow(
      'Example: options.strict must be true or false',
    );
  });

  it('refuses a name not in the table with the nearest known one', () => {
    expect(() => checkWithTable(EXAMPLE, 'Example', { szie: 3 })).toThrow(
      'Example: options.szie is not an option (did you mean size?); the options are mode, size, strict, hook',
    );
  });

  it('reads own keys only: a polluted prototype is no option', () => {
    const options = Object.create({ strict: 'yes' }) as object;
    expect(checkWithTable(EXAMPLE, 'Example', options)).toEqual({ mode: 'fast', size: undefined, strict: false });
  });

  it('checks the argument itself first', () => {
    expect(() => checkOptionsArgument(EXAMPLE, 'Example', null, 'an object')).toThrow(
      'Example: options must be an object',
    );
  });

  it('is a compile error when the table and the interface name different options', () => {
    const missing = { mode: { doc: 'the mode' } };
    // @ts-expect-error -- size, strict and hook have no entry
    const missingTable: OptionTable<ExampleOptions> = missing;
    const extraTable = {
      ...EXAMPLE,
      // @ts-expect-error -- speed is not an option of ExampleOptions
      speed: { doc: 'not an option' },
    } satisfies OptionTable<ExampleOptions>;
    expect(Object.keys(missingTable)).toEqual(['mode']);
    expect(Object.keys(extraTable)).toContain('speed');
  });
});
