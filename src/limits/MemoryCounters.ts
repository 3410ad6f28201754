import { createHmac } from 'node:crypto';
import { sha256 } from './keys.js';

/**
 * Send counts in memory, compact: a busy process counts thousands of destinations at once, each
 * for a whole window. Each count is 64 bits of a hash of its key, the count, an epoch (see
 * `SendLimiter`) and the end of its window, in typed arrays: an open-addressing table with
 * linear probing, at most half full, no object and no timer per key. Expired counts are swept
 * as it goes: a few slots on every call, the whole table before it would grow, and the table
 * shrinks once a sweep leaves it mostly empty. Nothing runs between calls.
 *
 * The table is bounded: at most `maxCounts` live counts (28 bytes a slot, at most half full, so
 * at most 56 bytes a count and `nextPow2(2 * maxCounts)` slots). At the bound a new key takes
 * the place of another (`makeRoom`), so a flood never locks new visitors out: the count given
 * up is an expired one when there is one, else the least of a sample of `SAMPLE` counts after
 * the cursor (not spent before spent, then the lowest count, then the one ending first). A spent
 * count (at its limit: it is what keeps a flooder refused) is given up only when the next
 * `SPENT_RUN` counts are all spent too, and then the one of them ending first.
 */

/**
 * Uint32 fields per slot: hash (hi, lo), count, epoch, limit (0: not known). A slot is empty
 * when hi and lo are 0.
 */
const FIELDS = 5;
const MIN_SLOTS = 64;
/** Slots the sweep looks at on each call: over a window, far more than the counts taken. */
const SWEEP_STEP = 4;
/** Counts looked at to choose the one given up at the bound. */
export const SAMPLE = 16;
/** Counts looked at, at most, for one that is not spent before a spent one is given up. */
export const SPENT_RUN = 1_024;
/** The default bound: 250,000 counts, a table of 2^19 slots, 14 MiB. */
export const DEFAULT_MAX_COUNTS = 250_000;

/** A count as read: `count` 0 and `endsAt` 0 when there is none (or it expired). */
export interface CountRead {
  count: number;
  epoch: number;
  endsAt: number;
}

const NONE: CountRead = Object.freeze({ count: 0, epoch: 0, endsAt: 0 });

/** A key's place in the table: 64 bits of SHA-256 of it, never (0, 0). */
export interface CountKey {
  hi: number;
  lo: number;
}

/**
 * The table's key for `key`: 64 bits of HMAC-SHA256 under `digestKey` (the table keeps no
 * address, number or IP, and a reader of the process's memory cannot test a guess against it
 * without the key), or of SHA-256 when no key is given.
 */
export function countKey(key: string, digestKey?: Buffer): CountKey {
  const digest =
    digestKey === undefined ? sha256(key, 'hex') : createHmac('sha256', digestKey).update(key).digest('hex');
  const hi = Number.parseInt(digest.slice(0, 8), 16);
  const lo = Number.parseInt(digest.slice(8, 16), 16);
  return { hi, lo: hi === 0 && lo === 0 ? 1 : lo };
}

/** Counts by key, each until the end of its window. Every call is given the time (`now`, ms). */
export class MemoryCounters {
  #words = new Uint32Array(MIN_SLOTS * FIELDS);
  #ends = new Float64Array(MIN_SLOTS);
  #used = 0;
  #cursor = 0;
  #evicted = 0;

  /** @param maxCounts the most counts held at once (see the class comment) */
  constructor(readonly maxCounts: number = DEFAULT_MAX_COUNTS) {}

  /** Counts held, expired ones not yet swept included. */
  get size(): number {
    return this.#used;
  }

  /** Slots in the table (twice `size` at most). */
  get capacity(): number {
    return this.#ends.length;
  }

  /** The live count of `key`, or `NONE`. */
  read(key: CountKey, now: number): CountRead {
    const i = this.live(key, now);
    if (i < 0) return NONE;
    return { count: this.countAt(i), epoch: this.epochAt(i), endsAt: this.endsAt(i) };
  }

  /**
   * The slot of the live count of `key`, or -1: read with `countAt`, `epochAt` and `endsAt`
   * before the next change (a change may move counts). Spares `read`'s object on the hot path.
   */
  live(key: CountKey, now: number): number {
    const i = this.#find(key);
    return this.#isEmpty(i) || this.#ends[i]! <= now ? -1 : i;
  }

  /** Whether the count is at or over the limit it was counted with. */
  spentAt(slot: number): boolean {
    return slot >= 0 && this.#spent(slot);
  }

  countAt(slot: number): number {
    return slot < 0 ? 0 : this.#words[slot * FIELDS + 2]!;
  }

  epochAt(slot: number): number {
    return slot < 0 ? 0 : this.#words[slot * FIELDS + 3]!;
  }

  endsAt(slot: number): number {
    return slot < 0 ? 0 : this.#ends[slot]!;
  }

  /** Counts given up at the bound so far (`makeRoom`), for benchmarks and tests. */
  get evicted(): number {
    return this.#evicted;
  }

  /**
   * Makes room for a count of each of `keys` the table does not hold yet: at the bound, gives up
   * other counts (see the class comment), never one of `keys`.
   */
  makeRoom(keys: readonly CountKey[], now: number): void {
    let fresh = 0;
    for (const key of keys) if (this.#isEmpty(this.#find(key))) fresh += 1;
    while (this.#used + fresh > this.maxCounts) {
      if (!this.#evictOne(keys, now)) return;
    }
  }

  /**
   * Adds one to the live count of `key` (when its epoch is `epoch`), or starts a new window of
   * `windowMs` at one with `epoch`: a count of another epoch is over.
   */
  add(key: CountKey, epoch: number, windowMs: number, now: number, limit = 0): void {
    this.#sweep(SWEEP_STEP, now);
    const i = this.#slotFor(key, now);
    const w = i * FIELDS;
    if (!this.#isEmpty(i) && this.#ends[i]! > now && this.#words[w + 3] === epoch) {
      this.#words[w + 2] = this.#words[w + 2]! + 1;
      this.#words[w + 4] = limit;
      return;
    }
    this.#write(i, key, 1, epoch, now + windowMs, limit);
  }

  /** Takes one from the live count of `key`, not below zero; nothing when there is none. */
  subtract(key: CountKey, now: number): void {
    const i = this.#find(key);
    if (this.#isEmpty(i) || this.#ends[i]! <= now) return;
    const w = i * FIELDS;
    if (this.#words[w + 2]! > 0) this.#words[w + 2] = this.#words[w + 2]! - 1;
  }

  /** Sets `key` to a count of zero with `epoch`, in a new window of `windowMs` from now. */
  restart(key: CountKey, epoch: number, windowMs: number, now: number): void {
    this.#sweep(SWEEP_STEP, now);
    this.makeRoom([key], now);
    this.#write(this.#slotFor(key, now), key, 0, epoch, now + windowMs, 0);
  }

  /** Spent: at or over the limit it was counted with (a count of an unknown limit never is). */
  #spent(i: number): boolean {
    const limit = this.#words[i * FIELDS + 4]!;
    return limit > 0 && this.#words[i * FIELDS + 2]! >= limit;
  }

  /**
   * Gives up one count, never one of `keep`: the first expired one met from the cursor, else
   * the least of the first `SAMPLE` counts (not spent first, then the lowest count, then the
   * one ending first); when all of those are spent, the first not spent of up to `SPENT_RUN`,
   * else the spent one of them ending first. The cursor moves past the counts looked at, so the
   * next choice looks at others.
   */
  #evictOne(keep: readonly CountKey[], now: number): boolean {
    const slots = this.#ends.length;
    const words = this.#words;
    let best = -1;
    let seen = 0;
    let i = this.#cursor;
    for (let steps = 0; steps < slots && seen < SPENT_RUN; steps++, i = (i + 1) & (slots - 1)) {
      if (this.#isEmpty(i)) continue;
      if (keep.some((k) => k.hi === words[i * FIELDS] && k.lo === words[i * FIELDS + 1])) continue;
      if (this.#ends[i]! <= now) {
        best = i;
        break;
      }
      seen += 1;
      if (best < 0 || this.#less(i, best)) best = i;
      if (seen >= SAMPLE && !this.#spent(best)) break;
    }
    if (best < 0) return false;
    this.#cursor = i;
    this.#remove(best);
    this.#evicted += 1;
    return true;
  }

  /** Whether the count at `a` is given up before the one at `b`. */
  #less(a: number, b: number): boolean {
    const spentA = this.#spent(a);
    if (spentA !== this.#spent(b)) return !spentA;
    const countA = this.#words[a * FIELDS + 2]!;
    const countB = this.#words[b * FIELDS + 2]!;
    if (countA !== countB) return countA < countB;
    return this.#ends[a]! < this.#ends[b]!;
  }

  #isEmpty(i: number): boolean {
    return this.#words[i * FIELDS] === 0 && this.#words[i * FIELDS + 1] === 0;
  }

  /** The slot of `key`, or the empty slot where it would go. */
  #find(key: CountKey): number {
    const words = this.#words;
    const mask = this.#ends.length - 1;
    for (let i = key.lo & mask; ; i = (i + 1) & mask) {
      const hi = words[i * FIELDS]!;
      const lo = words[i * FIELDS + 1]!;
      if ((hi === key.hi && lo === key.lo) || (hi === 0 && lo === 0)) return i;
    }
  }

  /** The slot of `key`, making room first when it is new and the table is half full. */
  #slotFor(key: CountKey, now: number): number {
    const i = this.#find(key);
    if (!this.#isEmpty(i) || (this.#used + 1) * 2 <= this.#ends.length) return i;
    // Full: sweep all of it first; grow only when it is still more than a quarter full, so
    // the next whole sweep comes after at least a quarter of the slots were filled again.
    this.#sweep(this.#ends.length * 2, now);
    if (this.#used * 4 > this.#ends.length) this.#resize(this.#ends.length * 2);
    return this.#find(key);
  }

  #write(i: number, key: CountKey, count: number, epoch: number, endsAt: number, limit: number): void {
    const w = i * FIELDS;
    if (this.#isEmpty(i)) this.#used += 1;
    this.#words[w] = key.hi;
    this.#words[w + 1] = key.lo;
    this.#words[w + 2] = count;
    this.#words[w + 3] = epoch;
    this.#words[w + 4] = limit;
    this.#ends[i] = endsAt;
  }

  /** Looks at `steps` slots from the cursor and removes the expired counts among them. */
  #sweep(steps: number, now: number): void {
    const slots = this.#ends.length;
    for (let n = 0; n < steps; n++) {
      const i = this.#cursor;
      if (!this.#isEmpty(i) && this.#ends[i]! <= now) {
        // The slot may now hold a count moved back from further on: look at it again.
        this.#remove(i);
        continue;
      }
      this.#cursor = (i + 1) & (slots - 1);
      if (this.#cursor === 0 && slots > MIN_SLOTS && this.#used * 8 < slots) {
        // A whole pass is done and the table is mostly empty: halve it (then look again).
        this.#resize(slots / 2);
        return;
      }
    }
  }

  /** Empties slot `i`, moving back the counts after it that probed past it (no tombstones). */
  #remove(i: number): void {
    const words = this.#words;
    const mask = this.#ends.length - 1;
    let hole = i;
    for (let j = (hole + 1) & mask; !this.#isEmpty(j); j = (j + 1) & mask) {
      const home = words[j * FIELDS + 1]! & mask;
      // The count at j stays when its home is cyclically in (hole, j]: its probe never passed the hole.
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      words.copyWithin(hole * FIELDS, j * FIELDS, j * FIELDS + FIELDS);
      this.#ends[hole] = this.#ends[j]!;
      hole = j;
    }
    words.fill(0, hole * FIELDS, hole * FIELDS + FIELDS);
    this.#ends[hole] = 0;
    this.#used -= 1;
  }

  #resize(slots: number): void {
    const words = this.#words;
    const ends = this.#ends;
    this.#words = new Uint32Array(Math.max(MIN_SLOTS, slots) * FIELDS);
    this.#ends = new Float64Array(Math.max(MIN_SLOTS, slots));
    this.#cursor = 0;
    for (let i = 0; i < ends.length; i++) {
      const w = i * FIELDS;
      if (words[w] === 0 && words[w + 1] === 0) continue;
      const j = this.#find({ hi: words[w]!, lo: words[w + 1]! });
      this.#words.set(words.subarray(w, w + FIELDS), j * FIELDS);
      this.#ends[j] = ends[i]!;
    }
  }
}
