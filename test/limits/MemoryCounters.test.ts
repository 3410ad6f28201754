// The memory store of the send limits on its own: counts, windows and the sweep, on a clock the
// test moves (every call is given `now`), never the wall clock.
import { describe, expect, it } from 'vitest';
import { countKey, MemoryCounters } from '../../src/limits/MemoryCounters.js';

const MINUTE = 60_000;
const key = (i: number) => countKey(`d:k${i}@example.com`);

describe('MemoryCounters', () => {
  it('counts in a fixed window from the first count: live until its last ms, gone at its end', () => {
    const counters = new MemoryCounters();
    const k = key(1);
    counters.add(k, 0, MINUTE, 1_000);
    counters.add(k, 0, MINUTE, 30_000);
    // The window started at the first count, not at the last one.
    expect(counters.read(k, 60_999)).toEqual({ count: 2, epoch: 0, endsAt: 61_000 });
    expect(counters.read(k, 61_000).count).toBe(0);
    // A count after the end starts a new window at one.
    counters.add(k, 0, MINUTE, 61_000);
    expect(counters.read(k, 61_000)).toEqual({ count: 1, epoch: 0, endsAt: 121_000 });
  });

  it('a count of another epoch is over: the next one starts a new window with that epoch', () => {
    const counters = new MemoryCounters();
    const k = key(2);
    counters.add(k, 0, MINUTE, 0);
    counters.add(k, 0, MINUTE, 0);
    counters.add(k, 7, MINUTE, 10_000);
    expect(counters.read(k, 10_000)).toEqual({ count: 1, epoch: 7, endsAt: 70_000 });
    counters.restart(k, 8, MINUTE, 20_000);
    expect(counters.read(k, 20_000)).toEqual({ count: 0, epoch: 8, endsAt: 80_000 });
  });

  it('subtracts within the window, never below zero, and not from an expired count', () => {
    const counters = new MemoryCounters();
    const k = key(3);
    counters.add(k, 0, MINUTE, 0);
    counters.subtract(k, 1);
    counters.subtract(k, 2);
    expect(counters.read(k, 3).count).toBe(0);
    counters.subtract(k, MINUTE);
    counters.add(k, 0, MINUTE, MINUTE);
    expect(counters.read(k, MINUTE).count).toBe(1);
  });

  it('keeps every count findable as the table grows, and while the sweep removes others around them', () => {
    const counters = new MemoryCounters();
    // Half the keys in windows that end early, half in long ones, interleaved.
    for (let i = 0; i < 5_000; i++) counters.add(key(i), 0, i % 2 === 0 ? MINUTE : 60 * MINUTE, 0);
    expect(counters.size).toBe(5_000);
    for (let i = 0; i < 5_000; i++) expect(counters.read(key(i), 0).count).toBe(1);
    // Past the short windows: new counts sweep as they go, and the long ones stay found.
    for (let i = 0; i < 5_000; i++) counters.add(key(100_000 + i), 0, 60 * MINUTE, 2 * MINUTE);
    for (let i = 1; i < 5_000; i += 2) expect(counters.read(key(i), 2 * MINUTE).count).toBe(1);
    for (let i = 0; i < 5_000; i++) expect(counters.read(key(100_000 + i), 2 * MINUTE).count).toBe(1);
    expect(counters.size).toBeLessThan(10_000);
    expect(counters.size).toBeGreaterThanOrEqual(7_500);
  });

  it('sweeps expired counts as it goes: the table stays the size of the live counts, not of all it saw', () => {
    const counters = new MemoryCounters();
    // 50,000 distinct keys, one a second, each for a minute: about 60 live at any time.
    let now = 0;
    for (let i = 0; i < 50_000; i++) {
      counters.add(key(i), 0, MINUTE, now);
      now += 1_000;
    }
    expect(counters.size).toBeLessThan(400);
    expect(counters.capacity).toBeLessThanOrEqual(1_024);
    for (let i = 50_000 - 59; i < 50_000; i++) expect(counters.read(key(i), now).count).toBe(1);
  });

  it('shrinks back once a burst has expired, on later calls alone (no timer)', () => {
    const counters = new MemoryCounters();
    for (let i = 0; i < 20_000; i++) counters.add(key(i), 0, MINUTE, 0);
    const burst = counters.capacity;
    expect(burst).toBeGreaterThanOrEqual(40_000);
    // After the windows end, a trickle of calls sweeps the burst away and halves the table.
    let now = 2 * MINUTE;
    for (let i = 0; i < 40_000; i++) counters.add(key(1_000_000 + (i % 10)), 0, MINUTE, (now += 10));
    expect(counters.size).toBeLessThanOrEqual(10);
    expect(counters.capacity).toBeLessThan(burst / 8);
  });
});

describe('MemoryCounters at its bound', () => {
  it('gives up an expired count first, then the lowest count not spent, never a spent one while others are there', () => {
    const counters = new MemoryCounters(4);
    const spent = key(100);
    // A spent count (5 of a limit of 5), two counts of 1 and one of 3 (limits of 5).
    for (let n = 0; n < 5; n++) counters.add(spent, 0, MINUTE, 0, 5);
    counters.add(key(101), 0, MINUTE, 0, 5);
    counters.add(key(102), 0, 2 * MINUTE, 0, 5);
    for (let n = 0; n < 3; n++) counters.add(key(103), 0, 3 * MINUTE, 0, 5);
    expect(counters.size).toBe(4);
    // Two new keys: the two counts of 1 go (the one ending first, then the other).
    counters.makeRoom([key(104), key(105)], 1_000);
    counters.add(key(104), 0, MINUTE, 1_000, 5);
    counters.add(key(105), 0, MINUTE, 1_000, 5);
    expect(counters.size).toBe(4);
    expect(counters.evicted).toBe(2);
    expect(counters.read(key(101), 1_000).count).toBe(0);
    expect(counters.read(key(102), 1_000).count).toBe(0);
    expect(counters.read(key(103), 1_000).count).toBe(3);
    expect(counters.read(spent, 1_000).count).toBe(5);
    // Every other count spent: the spent one ending first goes, and never a key being made room for.
    for (let n = 0; n < 4; n++) {
      if (n < 2) counters.add(key(103), 0, MINUTE, 1_000, 5);
      counters.add(key(104), 0, MINUTE, 1_000, 5);
      counters.add(key(105), 0, MINUTE, 1_000, 5);
    }
    counters.makeRoom([key(106)], 2_000);
    expect(counters.read(spent, 2_000).count).toBe(0);
    expect(counters.read(key(105), 2_000).count).toBe(5);
    // An expired count is given up before any live one.
    counters.add(key(106), 0, 1, 2_000, 5);
    counters.makeRoom([key(107)], 3_000);
    expect(counters.read(key(103), 3_000).count).toBe(5);
    expect(counters.read(key(104), 3_000).count).toBe(5);
    expect(counters.read(key(105), 3_000).count).toBe(5);
    expect(counters.size).toBe(3);
  });
});
