// What the memory store
// keeps, for how long, and which used-token marks it tells apart, seen through its public
// methods on a clock of the test's own.
import { describe, expect, it } from 'vitest';
import { MemoryFlowStore } from '../../src/index.js';

/** A used-token mark key as the strategy makes one: 16 digest bytes in canonical base64url. */
const digestKey = (bytes: number[]): string => `token:${Buffer.from(bytes).toString('base64url')}`;

/** 16 bytes whose halves fold (bytes 0-3 with 8-11, 4-7 with 12-15) to `hi` and `lo`. */
function folding(hi: number, lo: number, seed = 7): number[] {
  const bytes = Buffer.alloc(16);
  for (let i = 0; i < 8; i++) bytes[i] = (seed * 37 + i * 11) & 0xff;
  bytes.writeUInt32BE((bytes.readUInt32BE(0) ^ hi) >>> 0, 8);
  bytes.writeUInt32BE((bytes.readUInt32BE(4) ^ lo) >>> 0, 12);
  return [...bytes];
}

describe('flows in the memory store', () => {
  it('live until their expiry, gone at it', async () => {
    let now = 1_000;
    const store = new MemoryFlowStore({}, () => now);
    expect(await store.create('flow:a', 'one', 100)).toBe(true);
    expect(await store.create('flow:b', 'two', 100)).toBe(true);
    expect(await store.create('flow:c', 'three', 100)).toBe(true);
    now = 1_099;
    expect(await store.create('flow:a', 'again', 100)).toBe(false);
    expect(await store.get('flow:a')).toBe('one');
    now = 1_100;
    expect(await store.create('flow:c', 'again', 100)).toBe(true);
    expect(await store.swap('flow:b', 'two', 'three')).toBe(false);
    expect(await store.get('flow:a')).toBeUndefined();
    expect(await store.create('flow:b', 'new', 100)).toBe(true);
    expect(await store.take('flow:b')).toBe('new');
  });

  it('counts flows and marks together, and drops an expired flow once it is read', async () => {
    let now = 0;
    const store = new MemoryFlowStore({}, () => now);
    await store.create('flow:a', 'a', 10);
    await store.create('token:a', '1', 60_000);
    await store.create('token:b', '1', 60_000);
    expect(store.size).toBe(3);
    now = 10;
    expect(await store.get('flow:a')).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('keeps many flows by default, and sweeps an expired one when it is due', async () => {
    let now = 0;
    const store = new MemoryFlowStore({}, () => now);
    for (const key of ['flow:a', 'flow:b', 'flow:c']) await store.create(key, key, 100);
    for (const key of ['flow:a', 'flow:b', 'flow:c']) expect(await store.get(key)).toBe(key);
    now = 100;
    await store.create('flow:d', 'd', 100);
    expect(store.size).toBe(1);
  });

  it('an expired flow created again is the newest: the oldest live one is dropped before it', async () => {
    let now = 0;
    const store = new MemoryFlowStore({ maxEntries: 3 }, () => now);
    await store.create('flow:x', 'x', 1_000);
    await store.create('flow:a', 'a', 10);
    await store.create('flow:b', 'b', 1_000);
    now = 20;
    expect(await store.create('flow:a', 'a2', 1_000)).toBe(true);
    expect(await store.create('flow:c', 'c', 1_000)).toBe(true);
    expect(await store.get('flow:x')).toBeUndefined();
    expect(await store.get('flow:a')).toBe('a2');
    expect(await store.get('flow:b')).toBe('b');
  });

  it('sweeps at most a few expired flows per create, the oldest first', async () => {
    let now = 0;
    const store = new MemoryFlowStore({}, () => now);
    for (let i = 0; i < 10; i++) await store.create(`flow:${i}`, '', 10);
    now = 10;
    await store.create('flow:new', '', 10);
    // Four expired ones swept from the front, six left until their turn.
    expect(store.size).toBe(7);
  });
});

describe('used-token marks in the memory store', () => {
  it('live to the end of their 30-second generation, and not a millisecond more', async () => {
    let now = 0;
    const store = new MemoryFlowStore({}, () => now);
    expect(await store.create('token:a', '1', 45_000)).toBe(true);
    expect(await store.create('token:b', '1', 30_000)).toBe(true);
    now = 59_999;
    expect(await store.get('token:a')).toBe('1');
    now = 60_000;
    expect(await store.get('token:a')).toBeUndefined();
    expect(await store.get('token:b')).toBeUndefined();
    expect(store.size).toBe(0);
    expect(await store.create('token:b', '1', 30_000)).toBe(true);
  });

  it('are taken once, never swapped, and may be marked again once taken', async () => {
    const store = new MemoryFlowStore();
    await store.create('token:a', '1', 60_000);
    expect(await store.swap('token:a', '1', '2')).toBe(false);
    expect(await store.get('token:a')).toBe('1');
    expect(await store.take('token:a')).toBe('1');
    expect(await store.take('token:a')).toBeUndefined();
    expect(await store.get('token:a')).toBeUndefined();
    expect(await store.create('token:a', '1', 60_000)).toBe(true);
    expect(await store.get('token:a')).toBe('1');
  });

  it('options must be an object, in those words', () => {
    expect(() => new MemoryFlowStore(null as never)).toThrow('MemoryFlowStore: options must be an object');
  });

  it('a full store takes new marks again once old ones have expired', async () => {
    let now = 0;
    const store = new MemoryFlowStore({ maxMarks: 2 }, () => now);
    await store.create('token:a', '1', 1_000);
    await store.create('token:b', '1', 1_000);
    await expect(store.create('token:c', '1', 1_000)).rejects.toThrow('MemoryFlowStore: full of live used-token marks');
    now = 30_000;
    expect(await store.create('token:c', '1', 1_000)).toBe(true);
    expect(await store.create('token:d', '1', 1_000)).toBe(true);
  });

  it('taking one mark leaves the marks beside it in the table', async () => {
    const store = new MemoryFlowStore();
    // hi ^ lo picks the slot: 0 and 2.
    const first = digestKey(folding(0x100, 0x100));
    const third = digestKey(folding(0x102, 0x100));
    await store.create(first, '1', 60_000);
    await store.create(third, '1', 60_000);
    expect(await store.take(third)).toBe('1');
    expect(await store.get(first)).toBe('1');
  });

  it('every byte of a digest counts: digests that differ in their last byte are two marks', async () => {
    const store = new MemoryFlowStore();
    const bytes = folding(0x0a0b0c0d, 0x01020304);
    expect(await store.create(digestKey(bytes), '1', 60_000)).toBe(true);
    expect(await store.create(digestKey(bytes.map((b, i) => (i === 15 ? b ^ 0x10 : b))), '1', 60_000)).toBe(true);
  });

  it('keeps marks whose digest folds to the largest values', async () => {
    const store = new MemoryFlowStore();
    for (const [hi, lo] of [
      [0, 0xffffffff],
      [7, 0xffffffff],
      [7, 0xfffffffe],
    ] as const) {
      const key = digestKey(folding(hi, lo));
      expect(await store.create(key, '1', 60_000)).toBe(true);
      expect(await store.get(key)).toBe('1');
    }
  });

  it('holds up to 100 000 marks by default', async () => {
    const store = new MemoryFlowStore();
    // Digest keys, folded without a hash: the fastest way to 100 000.
    const bytes = Buffer.alloc(16, 1);
    for (let i = 0; i < 100_000; i++) {
      bytes.writeUInt32BE(i, 0);
      await store.create(`token:${bytes.toString('base64url')}`, '1', 60_000);
    }
    await expect(store.create('token:one-more', '1', 60_000)).rejects.toThrow('maxMarks 100000');
  });

  it('a digest key is folded to 64 bits, not hashed again: two digests that fold alike are one mark', async () => {
    const store = new MemoryFlowStore();
    const bytes = folding(0x12345678, 0x9abcdef0);
    const alike = bytes.map((b, i) => (i === 0 || i === 8 ? b ^ 0xff : b));
    expect(await store.create(digestKey(bytes), '1', 60_000)).toBe(true);
    expect(await store.create(digestKey(alike), '1', 60_000)).toBe(false);
  });

  it('a key that only contains a digest key is a mark of its own', async () => {
    const store = new MemoryFlowStore();
    const key = digestKey(folding(1, 2));
    await store.create(key, '1', 60_000);
    expect(await store.get(`${key}A`)).toBeUndefined();
    expect(await store.get(`token:x${key.slice(6)}`)).toBeUndefined();
    // The digest key read behind a second prefix.
    const inner = `token:${key}`;
    const folded = digestKey([...Buffer.from(inner.slice(6), 'base64url').subarray(0, 16)]);
    await store.create(folded, '1', 60_000);
    expect(await store.get(inner)).toBeUndefined();
  });

  it('keys that fold to the values the table keeps for empty and removed slots are marks like any other', async () => {
    const store = new MemoryFlowStore();
    // (0, 0) and (0, 1) are moved to (0, 2) and (0, 3): only those two could be confused, never (5, 0) with (5, 2).
    for (const [hi, lo] of [
      [0, 0],
      [0, 1],
      [0, 9],
      [5, 0],
      [5, 1],
      [5, 2],
      [5, 3],
    ] as const) {
      const key = digestKey(folding(hi, lo, hi + lo));
      expect(await store.create(key, '1', 60_000), `${hi},${lo}`).toBe(true);
      expect(await store.get(key), `${hi},${lo}`).toBe('1');
    }
    for (const [hi, lo] of [
      [0, 0],
      [0, 1],
      [5, 0],
    ] as const) {
      const key = digestKey(folding(hi, lo, hi + lo));
      expect(await store.take(key), `${hi},${lo}`).toBe('1');
      expect(await store.get(key), `${hi},${lo}`).toBeUndefined();
    }
  });

  it('keeps every mark as its table grows, those folding to small values too', async () => {
    const store = new MemoryFlowStore();
    const keys = [digestKey(folding(9, 0)), digestKey(folding(9, 1)), digestKey(folding(0, 9))];
    for (const key of keys) await store.create(key, '1', 60_000);
    await store.create('token:taken', '1', 60_000);
    await store.take('token:taken');
    for (let i = 0; i < 200; i++) await store.create(`token:filler-${i}`, '1', 60_000);
    for (const key of keys) expect(await store.get(key)).toBe('1');
    expect(await store.get('token:taken')).toBeUndefined();
    for (let i = 0; i < 200; i++) expect(await store.get(`token:filler-${i}`)).toBe('1');
  });
});
