import { createHash } from 'node:crypto';

/**
 * Used-token marks in memory, compact: a login leaves one for several minutes, so thousands
 * are live at once in a busy process. Each mark is 64 bits of a hash of its key in an
 * open-addressing table (8 bytes a slot, at most half full); marks are grouped in generations
 * by the time they expire, and a generation is dropped whole once its last mark may go.
 * A mark lives up to one generation (`SPAN_MS`) longer than asked: on the safe side.
 */

/** Width of a generation, in ms of expiry time. */
const SPAN_MS = 30_000;
const INITIAL_SLOTS = 64;
/** (hi, lo) of an empty slot and of a removed mark; real hashes are moved off both. */
const EMPTY_LO = 0;
const REMOVED_LO = 1;

class Generation {
  slots = new Uint32Array(INITIAL_SLOTS * 2);
  used = 0;

  constructor(readonly endsAt: number) {}

  /** The slot index of the hash, or of the empty slot where it would go. */
  #find(slots: Uint32Array, hi: number, lo: number): number {
    const mask = slots.length / 2 - 1;
    for (let i = (hi ^ lo) & mask; ; i = (i + 1) & mask) {
      const sHi = slots[2 * i]!;
      const sLo = slots[2 * i + 1]!;
      if ((sHi === hi && sLo === lo) || (sHi === 0 && sLo === EMPTY_LO)) return i;
    }
  }

  has(hi: number, lo: number): boolean {
    const i = this.#find(this.slots, hi, lo);
    return this.slots[2 * i + 1] !== EMPTY_LO || this.slots[2 * i] !== 0;
  }

  add(hi: number, lo: number): void {
    if ((this.used + 1) * 2 > this.slots.length / 2) this.#grow();
    const i = this.#find(this.slots, hi, lo);
    this.slots[2 * i] = hi;
    this.slots[2 * i + 1] = lo;
    this.used += 1;
  }

  remove(hi: number, lo: number): boolean {
    const i = this.#find(this.slots, hi, lo);
    if (this.slots[2 * i] === 0 && this.slots[2 * i + 1] === EMPTY_LO) return false;
    // A removed mark keeps its slot (so the probes past it still find theirs) and stays counted.
    this.slots[2 * i] = 0;
    this.slots[2 * i + 1] = REMOVED_LO;
    return true;
  }

  #grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) {
      const hi = old[i]!;
      const lo = old[i + 1]!;
      if (hi === 0 && lo <= REMOVED_LO) continue;
      const j = this.#find(this.slots, hi, lo);
      this.slots[2 * j] = hi;
      this.slots[2 * j + 1] = lo;
    }
  }
}

/** Marks by key, each until its expiry (rounded up to its generation's end). */
export class MemoryMarks {
  readonly #generations = new Map<number, Generation>();
  #count = 0;

  constructor(readonly max: number) {}

  /** Marks held now, counting those of generations not yet dropped. */
  get size(): number {
    return this.#count;
  }

  has(key: string, now: number): boolean {
    const [hi, lo] = hashOf(key);
    this.#sweep(now);
    for (const generation of this.#generations.values()) if (generation.has(hi, lo)) return true;
    return false;
  }

  /** Adds a mark; false when the key is marked already. Throws when full of live marks. */
  add(key: string, expiresAt: number, now: number): boolean {
    const [hi, lo] = hashOf(key);
    this.#sweep(now);
    for (const generation of this.#generations.values()) if (generation.has(hi, lo)) return false;
    if (this.#count >= this.max)
      throw new Error(`MemoryFlowStore: full of live used-token marks (maxMarks ${this.max})`);
    const bucket = Math.ceil(expiresAt / SPAN_MS);
    let generation = this.#generations.get(bucket);
    if (!generation) this.#generations.set(bucket, (generation = new Generation(bucket * SPAN_MS)));
    generation.add(hi, lo);
    this.#count += 1;
    return true;
  }

  remove(key: string, now: number): boolean {
    const [hi, lo] = hashOf(key);
    this.#sweep(now);
    for (const generation of this.#generations.values()) if (generation.remove(hi, lo)) return true;
    return false;
  }

  /**
   * Drops the generations that ended, so the ones left are live. A loop, not a generator: a
   * generator's object and resumptions cost more than the lookup itself, on every login.
   */
  #sweep(now: number): void {
    for (const [bucket, generation] of this.#generations) {
      if (generation.endsAt > now) continue;
      this.#generations.delete(bucket);
      this.#count -= generation.used;
    }
  }
}

/**
 * A used-token mark's key as src/strategy/tokens.ts makes it: 128 bits of HMAC in canonical
 * base64url (the last character carries 2 bits and 4 zero bits, so it is one of A, Q, g, w).
 */
const TOKEN_DIGEST_KEY = /^token:[A-Za-z0-9_-]{21}[AQgw]$/;

/**
 * 64 bits of the key, never the empty or removed slot's value. A used-token key is already a
 * keyed digest (uniform, unknown without the secret): its 128 bits are folded to 64, which
 * spares a second hash on every login, and every character still counts. Any other key is
 * hashed with SHA-256.
 */
function hashOf(key: string): [number, number] {
  let hi: number;
  let lo: number;
  if (TOKEN_DIGEST_KEY.test(key)) {
    const digest = Buffer.from(key.slice(6), 'base64url');
    hi = (digest.readUInt32BE(0) ^ digest.readUInt32BE(8)) >>> 0;
    lo = (digest.readUInt32BE(4) ^ digest.readUInt32BE(12)) >>> 0;
  } else {
    const digest = createHash('sha256').update(key).digest();
    hi = digest.readUInt32BE(0);
    lo = digest.readUInt32BE(4);
  }
  if (hi === 0 && lo <= REMOVED_LO) lo += 2;
  return [hi, lo];
}
