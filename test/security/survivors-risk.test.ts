// Mutation survivors of src/risk/assessRisk.ts: what an app sees when it passes its own `now`.
import { describe, expect, it } from 'vitest';
import { assessRisk } from '../../src/risk/index.js';
import { cleanSecureInfo } from '../risk/fixtures.js';

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
