import { describe, expect, it } from 'vitest';
import { rememberAtMost } from '../src/boundedMemo.js';

// The memos of costly per-request work (user bindings, derived keys, opened signals, secrets)
// must stay bounded in a process that sees many distinct inputs.
describe('rememberAtMost', () => {
  it('keeps at most `max` entries, the oldest out first, and returns what it keeps', () => {
    const memo = new Map<string, number>();
    for (let i = 0; i < 5; i++) expect(rememberAtMost(memo, `k${i}`, i, 3)).toBe(i);
    expect([...memo]).toEqual([
      ['k2', 2],
      ['k3', 3],
      ['k4', 4],
    ]);
  });

  it('a key already kept is replaced in place: nothing else goes, even when full', () => {
    const memo = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    expect(rememberAtMost(memo, 'a', 10, 2)).toBe(10);
    expect([...memo]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });

  it('below `max` nothing goes', () => {
    const memo = new Map([['a', 1]]);
    rememberAtMost(memo, 'b', 2, 3);
    expect([...memo.keys()]).toEqual(['a', 'b']);
  });
});
